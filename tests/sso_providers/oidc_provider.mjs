// A conformant OpenID Provider for the sso tests: panva's oidc-provider (OpenID Certified) on 127.0.0.1.
//
//   node tests/sso_providers/oidc_provider.mjs --claims=userinfo --redirect-uri=http://testserver/sso/login
//
// Options (each may also come from the environment variable named beside it):
//   --port           OIDC_PORT           port on 127.0.0.1; 0 (the default) takes a free one
//   --client-id      OIDC_CLIENT_ID      the one registered client (default atrium-client)
//   --client-secret  OIDC_CLIENT_SECRET  its secret (default s3cret-client)
//   --redirect-uri   OIDC_REDIRECT_URI   its redirect URI; repeat the option for more than one
//   --claims         OIDC_CLAIMS         where the profile and e-mail claims go:
//                                         "id_token": in the ID token as well (conformIdTokenClaims off)
//                                         "userinfo": only at the userinfo endpoint, the ID token of the
//                                         code flow carries sub and the protocol claims (the default,
//                                         OpenID Connect Core 5.4)
//   --watch-stdin                        exit when standard input closes (the test process is gone)
//
// One account, signed in without a page: the interaction asks for a login and then a consent; both are
// answered at once for that account (with a grant of exactly what the client asked for), so an HTTP
// client that follows redirects and keeps cookies ends at the client's redirect URI with a code.
// When it listens it prints one line on standard output: "READY <issuer>".

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import Provider from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.OIDC_PORT || '0' },
    'client-id': { type: 'string', default: process.env.OIDC_CLIENT_ID || 'atrium-client' },
    'client-secret': { type: 'string', default: process.env.OIDC_CLIENT_SECRET || 's3cret-client' },
    'redirect-uri': {
      type: 'string',
      multiple: true,
      default: (process.env.OIDC_REDIRECT_URI || 'http://testserver/sso/login').split(/\s+/).filter(Boolean),
    },
    claims: { type: 'string', default: process.env.OIDC_CLAIMS || 'userinfo' },
    'watch-stdin': { type: 'boolean', default: false },
  },
});

if (!['userinfo', 'id_token'].includes(args.claims)) {
  console.error(`--claims must be "userinfo" or "id_token", not ${JSON.stringify(args.claims)}`);
  process.exit(2);
}

const ACCOUNT = Object.freeze({
  sub: 'pat-0001',
  name: 'Pat Example',
  given_name: 'Pat',
  family_name: 'Example',
  preferred_username: 'pat',
  email: 'pat@example.test',
  email_verified: true,
});

const accounts = new Map([[ACCOUNT.sub, ACCOUNT]]);

async function findAccount(_ctx, id) {
  const account = accounts.get(id);
  if (!account) return undefined;
  return {
    accountId: id,
    // every claim the account has: the provider hands out only those the granted scopes allow, and
    // (with conformIdTokenClaims) keeps the scope's claims out of an ID token issued with an access token
    async claims() {
      return { ...account };
    },
  };
}

const signing = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

const configuration = {
  clients: [
    {
      client_id: args['client-id'],
      client_secret: args['client-secret'],
      redirect_uris: args['redirect-uri'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: {
    openid: ['sub'],
    profile: ['name', 'given_name', 'family_name', 'preferred_username'],
    email: ['email', 'email_verified'],
  },
  conformIdTokenClaims: args.claims === 'userinfo',
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  jwks: { keys: [{ ...signing, use: 'sig', alg: 'RS256', kid: 'atrium-test' }] },
  features: {
    devInteractions: { enabled: false },
    revocation: { enabled: true },
    rpInitiatedLogout: { enabled: true },
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount,
};

// The interaction, answered without a page: log the one account in, then grant what was asked.
async function interact(provider, req, res) {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login') {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: ACCOUNT.sub } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (prompt.name !== 'consent') {
    res.writeHead(501, { 'content-type': 'text/plain' }).end(`prompt ${prompt.name} is not implemented`);
    return;
  }
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const { details } = prompt;
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes || {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

let provider;
let handle;
const server = createServer((req, res) => {
  if (req.url.startsWith('/interaction/')) {
    interact(provider, req, res).catch((err) => {
      console.error('interaction failed:', err);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${err.message}`);
    });
    return;
  }
  handle(req, res);
});

server.listen(Number(args.port), '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx, err) => console.error('server_error:', err));
  handle = provider.callback();
  process.stdout.write(`READY ${issuer}\n`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
if (args['watch-stdin']) {
  process.stdin.on('end', stop).on('error', stop).resume();
}
