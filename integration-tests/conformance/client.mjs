// stretto-conformance-client: the MCP host of the conformance suite's client mode, on the
// official TypeScript SDK. The suite runs it once per scenario, with the scenario's server URL
// as the last argument, MCP_CONFORMANCE_SCENARIO naming the scenario and, for some,
// MCP_CONFORMANCE_CONTEXT holding what a user would configure (a pre-registered client, a
// machine client's secret or key).
//
//   node client.mjs direct URL   the SDK's own client speaks Streamable HTTP to URL, signing in
//                                with the SDK's OAuth support
//   node client.mjs proxy URL    the SDK's client speaks stdio to stretto-proxy --upstream URL,
//                                which signs in (STRETTO_PROXY names the launcher; the browser
//                                is follow.mjs, which approves as the suite's server wants)
//
// Either way it initializes, lists the tools and calls each one with arguments made from its
// schema, answering an elicitation by accepting with nothing filled in (the SDK applies the
// schema's defaults). Exit status 0 when every step worked, 1 when one failed (stderr says
// which). The SDK is loaded from .cache/conformance/, where bin/test installs this directory's
// package-lock.json.
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const installed = new URL('../../.cache/conformance/', import.meta.url);
const require = createRequire(installed);
const load = (path) => import(pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href);
const { Client } = await load('client/index.js');
const { StreamableHTTPClientTransport } = await load('client/streamableHttp.js');
const { StdioClientTransport } = await load('client/stdio.js');
const { UnauthorizedError } = await load('client/auth.js');
const { ClientCredentialsProvider, PrivateKeyJwtProvider } = await load('client/auth-extensions.js');
const { ElicitRequestSchema } = await load('types.js');

/** The URL of a client metadata document, used where the authorization server takes one. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT = 'http://127.0.0.1:9/callback';
// The suite runs every scenario at once: on a busy machine a proxy's JVM may take long to start,
// so each request may take up to 3 minutes (the suite's own timeout bounds the whole run).
const WAIT = { timeout: 180000 };

const [mode, url] = [process.argv[2], process.argv.at(-1)];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const say = (what) => console.error(`stretto-conformance-client: ${what}`);

/** The SDK's OAuth client provider for an interactive client whose "browser" follows one redirect. */
class RedirectingProvider {
  constructor(clientInformation) {
    this._client = clientInformation;
    this._tokens = undefined;
    this._verifier = undefined;
    this.code = undefined;
  }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return { client_name: 'stretto-conformance-client', redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
      token_endpoint_auth_method: 'none' };
  }
  get clientMetadataUrl() { return CIMD_URL; }
  clientInformation() { return this._client; }
  saveClientInformation(info) { this._client = info; }
  tokens() { return this._tokens; }
  saveTokens(tokens) { this._tokens = tokens; }
  saveCodeVerifier(v) { this._verifier = v; }
  codeVerifier() { return this._verifier; }
  invalidateCredentials(scope) {
    this._tokens = undefined;
    if (scope === 'all') { this._client = undefined; }
  }
  async redirectToAuthorization(authorizationUrl) {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    const location = response.headers.get('location');
    const code = location ? new URL(location).searchParams.get('code') : null;
    if (!code) throw new Error(`the authorization server did not redirect with a code (HTTP ${response.status})`);
    this.code = code;
  }
}

function directTransport() {
  let provider;
  if (scenario === 'auth/client-credentials-basic') {
    provider = new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret });
  } else if (scenario === 'auth/client-credentials-jwt') {
    provider = new PrivateKeyJwtProvider({ clientId: context.client_id, privateKey: context.private_key_pem,
      algorithm: context.signing_algorithm ?? 'ES256' });
  } else if (scenario === 'auth/pre-registration') {
    provider = new RedirectingProvider({ client_id: context.client_id, client_secret: context.client_secret,
      redirect_uris: [REDIRECT] });
  } else {
    provider = new RedirectingProvider(undefined);
  }
  return { provider, make: () => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }) };
}

function proxyTransport() {
  const launcher = process.env.STRETTO_PROXY;
  if (!launcher) throw new Error('STRETTO_PROXY is not set');
  const home = mkdtempSync(join(tmpdir(), 'stretto-conformance-home-'));
  const args = ['--upstream', url, '--oauth-browser', `${process.execPath} ${join(here, 'follow.mjs')}`,
    '--oauth-client-metadata-url', CIMD_URL, '--oauth-timeout', '150'];
  const file = (name, text) => {
    const path = join(home, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  if (context.client_id) args.push('--oauth-client-id', context.client_id);
  if (context.client_secret) args.push('--oauth-client-secret-file', file('client-secret', context.client_secret));
  if (context.private_key_pem) args.push('--oauth-client-key-file', file('client-key.pem', context.private_key_pem));
  if (scenario.startsWith('auth/client-credentials-')) args.push('--oauth-client-credentials');
  const env = { ...process.env, HOME: home };
  delete env.MCP_CONFORMANCE_CONTEXT;
  return { provider: null, make: () => new StdioClientTransport({ command: launcher, args, env, stderr: 'inherit' }) };
}

/** Arguments for a tool, from its schema: a number, a string, a boolean for each required property. */
function argumentsFor(tool) {
  const out = {};
  const props = tool.inputSchema?.properties ?? {};
  for (const name of tool.inputSchema?.required ?? []) {
    const type = props[name]?.type;
    out[name] = type === 'number' || type === 'integer' ? 2 : type === 'boolean' ? true : 'x';
  }
  return out;
}

async function main() {
  const { provider, make } = mode === 'proxy' ? proxyTransport() : directTransport();
  let transport;
  let client;
  const open = async () => {
    transport = make();
    client = new Client({ name: 'stretto-conformance-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: { applyDefaults: true } } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
    await client.connect(transport, WAIT);
  };
  // The SDK's way to sign in: a request that needs it throws UnauthorizedError once the browser
  // was sent to the authorization server; the code it brought back finishes the sign-in, and the
  // request is made again.
  const signedIn = async (step, again) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (e) {
        if (!(e instanceof UnauthorizedError) || !provider?.code || attempt >= 3) throw e;
        const code = provider.code;
        provider.code = undefined;
        await transport.finishAuth(code);
        if (again) await again();
      }
    }
  };
  await signedIn(open, async () => { await transport.close().catch(() => {}); });
  const { tools } = await signedIn(() => client.listTools(undefined, WAIT));
  for (const tool of tools) {
    const result = await signedIn(() => client.callTool({ name: tool.name, arguments: argumentsFor(tool) },
      undefined, WAIT));
    if (result.isError) throw new Error(`${tool.name} answered an error: ${JSON.stringify(result.content)}`);
  }
  say(`${scenario}: ${tools.length} tool(s) called`);
  await transport.terminateSession?.().catch(() => {});
  await client.close();
}

try {
  await main();
  process.exit(0);
} catch (e) {
  say(`${scenario}: failed: ${e?.message ?? e}`);
  process.exit(1);
}
