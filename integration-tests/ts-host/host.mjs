// stretto-ts-host: a small MCP host on the official TypeScript SDK, which the integration
// tests put in front of stretto-proxy. It starts a stdio server (or connects to a Streamable
// HTTP one), initializes, lists the tools and calls one, answering on the way what a server
// may ask of a host (roots/list, sampling/createMessage, elicitation/create) with fixed
// replies. Each step is one line on stdout, "<what>: <detail>"; the server's log messages
// and the call's progress too.
//
//   node host.mjs [--call TOOL [--args JSON]]... [--allow-error] -- COMMAND [ARG...]
//   node host.mjs [--call TOOL [--args JSON]]... [--allow-error] [--header NAME=VALUE]... --http URL
//
// Each --call is made in turn (lookup {} when none is given); --args belongs to the --call
// before it. --allow-error takes a result with isError as a result (a refused call, say);
// --header sends a header with every HTTP request (Stretto-Session, Authorization).
// Exit status 0 with a last line "host: ok" when every step worked; 1 with
// "host: failed: <why>" when one did not; 2 for a usage error. The SDK is loaded from
// .cache/ts-host/ at the top of the checkout, where bin/test installs this directory's
// package-lock.json (bin/lib/npm-install ts-host).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const installed = new URL('../../.cache/ts-host/', import.meta.url);

function usage(problem) {
  console.error(`stretto-ts-host: ${problem}`);
  console.error('usage: node host.mjs [--call TOOL [--args JSON]]... [--allow-error] [--header NAME=VALUE]...'
    + ' (-- COMMAND [ARG...] | --http URL)');
  process.exit(2);
}

function parse(argv) {
  const options = { calls: [], allowError: false, headers: {}, url: null, command: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${arg} needs a value`));
    if (arg === '--') {
      options.command = argv.slice(i + 1);
      break;
    } else if (arg === '--call') {
      options.calls.push({ name: value(), arguments: {} });
    } else if (arg === '--args') {
      const text = value();
      if (options.calls.length === 0) {
        usage('--args belongs to a --call before it');
      }
      try {
        options.calls[options.calls.length - 1].arguments = JSON.parse(text);
      } catch {
        usage(`--args is not JSON: ${text}`);
      }
    } else if (arg === '--allow-error') {
      options.allowError = true;
    } else if (arg === '--header') {
      const header = value();
      const eq = header.indexOf('=');
      if (eq <= 0) {
        usage(`--header takes NAME=VALUE, not ${header}`);
      }
      options.headers[header.slice(0, eq)] = header.slice(eq + 1);
    } else if (arg === '--http') {
      options.url = value();
    } else {
      usage(`unknown argument ${arg}`);
    }
  }
  if ((options.url === null) === (options.command === null || options.command.length === 0)) {
    usage('give the server as -- COMMAND or as --http URL');
  }
  if (options.calls.length === 0) {
    options.calls.push({ name: 'lookup', arguments: {} });
  }
  return options;
}

async function loadSdk() {
  const require = createRequire(installed);
  const load = async (path) => {
    let file;
    try {
      file = require.resolve(`@modelcontextprotocol/sdk/${path}`);
    } catch {
      console.error(`stretto-ts-host: the TypeScript SDK is not installed in ${installed.pathname};`
        + ' run bin/lib/npm-install ts-host');
      process.exit(2);
    }
    return import(pathToFileURL(file).href);
  };
  return {
    ...(await load('client/index.js')),
    ...(await load('client/stdio.js')),
    ...(await load('client/streamableHttp.js')),
    schemas: await load('types.js'),
  };
}

const say = (what, detail) => console.log(`${what}: ${detail}`);

const options = parse(process.argv.slice(2));
const sdk = await loadSdk();

const client = new sdk.Client(
  { name: 'stretto-ts-host', version: '1.0.0' },
  { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } },
);
client.setRequestHandler(sdk.schemas.ListRootsRequestSchema, async () => {
  say('answered', 'roots/list');
  return { roots: [{ uri: pathToFileURL(process.cwd()).href, name: 'working directory' }] };
});
client.setRequestHandler(sdk.schemas.CreateMessageRequestSchema, async () => {
  say('answered', 'sampling/createMessage');
  return {
    role: 'assistant', model: 'stretto-ts-host', stopReason: 'endTurn',
    content: { type: 'text', text: 'a fixed reply from stretto-ts-host' },
  };
});
client.setRequestHandler(sdk.schemas.ElicitRequestSchema, async () => {
  say('answered', 'elicitation/create');
  return { action: 'decline' };
});
client.setNotificationHandler(sdk.schemas.LoggingMessageNotificationSchema,
  (n) => say('log', `${n.params.level} ${JSON.stringify(n.params.data)}`));

const transport = options.url !== null
  ? new sdk.StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers: options.headers } })
  : new sdk.StdioClientTransport({ command: options.command[0], args: options.command.slice(1), stderr: 'inherit' });

try {
  await client.connect(transport);
  say('server', JSON.stringify(client.getServerVersion()));
  const { tools } = await client.listTools();
  say('tools', tools.map((t) => t.name).join(' '));
  for (const call of options.calls) {
    const result = await client.callTool(call, undefined, {
      timeout: 60_000,
      onprogress: (p) => say('progress', JSON.stringify(p)),
    });
    say('result', JSON.stringify(result));
    if (result.isError && !options.allowError) {
      throw new Error(`${call.name} answered with isError`);
    }
  }
  say('host', 'ok');
} catch (e) {
  say('host', `failed: ${e?.message ?? e}`);
  process.exitCode = 1;
} finally {
  // Over HTTP the session is ended with a DELETE; a stdio server gets its stdin closed, then
  // SIGTERM and SIGKILL if it lingers (the SDK's shutdown).
  if (options.url !== null) {
    await transport.terminateSession().catch(() => {});
  }
  await client.close();
}
