// stretto-conformance-opener: the "browser" of the conformance runs. The proxy runs it as
// --oauth-browser with the authorization URL as its last argument; it follows the redirects,
// as a browser would, so that the conformance suite's authorization server (which approves
// without asking) sends its code on to the proxy's loopback callback. Exit status 0 when the
// last page answered 2xx, else 1.
const url = process.argv.at(-1);
try {
  const response = await fetch(url, { redirect: 'follow' });
  await response.text();
  process.exit(response.ok ? 0 : 1);
} catch (e) {
  console.error(`stretto-conformance-opener: ${e?.message ?? e}`);
  process.exit(1);
}
