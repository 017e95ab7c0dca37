// The full schema, for drizzle's query builder and drizzle-kit. One file per domain beside this.
export * from './auth';
export * from './roles';
export * from './personalities';
export * from './sharing';
export * from './documents';
export * from './feedback';
export * from './rate-limits';
export * from './conversations';
export * from './questions';
export * from './jobs';
export * from './security';
export * from './moderation';
export * from './voice';
