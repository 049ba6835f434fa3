// stretto-ts-sessions: many MCP hosts at once on the official TypeScript SDK, each with a
// Streamable HTTP session of its own against one URL (stretto-proxy --listen, in the tests).
// Every host initializes, lists the tools, calls one tool with a text naming the host, checks
// that the answer names it back, and ends its session with a DELETE; all at once.
//
//   node sessions.mjs --sessions N --call TOOL --url URL
//
// The tool gets {"text":"host <i>"} and must answer with that text somewhere in its result.
// Prints "sessions: <N> ok" and exits 0 when every host did; else one line per host that
// failed, "host <i>: failed: <why>", and exit status 1; 2 for a usage error. The SDK is loaded
// from .cache/ts-host/ at the top of the checkout, as host.mjs does.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const installed = new URL('../../.cache/ts-host/', import.meta.url);

function usage(problem) {
  console.error(`stretto-ts-sessions: ${problem}`);
  console.error('usage: node sessions.mjs --sessions N --call TOOL --url URL');
  process.exit(2);
}

const options = { sessions: 0, tool: null, url: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${argv[i]} needs a value`));
  switch (argv[i]) {
    case '--sessions': options.sessions = Number.parseInt(value(), 10); break;
    case '--call': options.tool = value(); break;
    case '--url': options.url = value(); break;
    default: usage(`unknown argument ${argv[i]}`);
  }
}
if (!(options.sessions > 0) || options.tool === null || options.url === null) {
  usage('give --sessions N, --call TOOL and --url URL');
}

const require = createRequire(installed);
const load = async (path) => import(pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href);
const { Client } = await load('client/index.js');
const { StreamableHTTPClientTransport } = await load('client/streamableHttp.js');

async function host(i) {
  const client = new Client({ name: `stretto-ts-sessions-${i}`, version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(options.url),
    { requestInit: { headers: { 'Stretto-Session': `host-${i}` } } });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    if (!tools.some((t) => t.name === options.tool)) {
      throw new Error(`${options.tool} is not among the tools: ${tools.map((t) => t.name).join(' ')}`);
    }
    const text = `host ${i}`;
    const result = await client.callTool({ name: options.tool, arguments: { text } }, undefined, { timeout: 120_000 });
    if (!JSON.stringify(result).includes(text)) {
      throw new Error(`the answer does not name ${text}: ${JSON.stringify(result)}`);
    }
    await transport.terminateSession();
    return null;
  } catch (e) {
    return `host ${i}: failed: ${e?.message ?? e}`;
  } finally {
    await client.close().catch(() => {});
  }
}

const failures = (await Promise.all(Array.from({ length: options.sessions }, (_, i) => host(i + 1))))
  .filter((f) => f !== null);
if (failures.length === 0) {
  console.log(`sessions: ${options.sessions} ok`);
} else {
  failures.forEach((f) => console.log(f));
  process.exitCode = 1;
}
