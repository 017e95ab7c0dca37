/** "1 miss", "3 misses": a count with the word that fits it. */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
