// s3rver in a process of its own, started by s3-test-server.ts with --openssl-legacy-provider:
// s3rver encrypts its ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps only in its
// legacy provider, so in an ordinary Node process any listing longer than one page fails. Prints
// the port once listening; exits when its parent closes stdin.
import S3rver from 's3rver';

const [directory, bucket, port] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: Number(port ?? 0), silent: true, directory, configureBuckets: [{ name: bucket }] });
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await server.close();
  process.exit(0);
});
