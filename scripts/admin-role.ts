// npm run admin -- grant someone@example.com   |   npm run admin -- revoke someone@example.com
// Grants or revokes admin for an existing account, on the configured database.
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { DataDirLockedError, openDatabase } from '../src/server/db/client';
import { findUserIdByEmail, grantAdmin, revokeAdmin } from '../src/server/auth/roles';
import { createLogger } from '../src/server/lib/logger';

const [action, email] = process.argv.slice(2);
if ((action !== 'grant' && action !== 'revoke') || !email) {
  console.error('Usage: npm run admin -- grant|revoke <email>');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'),
  logger: createLogger('warn'),
}).catch((err: unknown) => {
  // PGlite: the running server holds the folder; say so plainly instead of a stack trace.
  if (err instanceof DataDirLockedError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
});
try {
  const userId = await findUserIdByEmail(database.db, email);
  if (!userId) {
    console.error(`No account with the e-mail ${email}`);
    process.exitCode = 1;
  } else if (action === 'grant') {
    await grantAdmin(database.db, userId);
    console.log(`${email} is now an admin`);
  } else {
    await revokeAdmin(database.db, userId);
    console.log(`${email} is no longer an admin`);
  }
} finally {
  await database.close();
}
