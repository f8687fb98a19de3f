/**
 * The OAuth resource-server surface of an HTTP endpoint (MCP authorization,
 * 2025-11-25 and 2026-07-28; RFC 9728, RFC 6750):
 *
 * - Protected Resource Metadata at `/.well-known/oauth-protected-resource`
 *   and at the path-suffixed form (`/.well-known/oauth-protected-resource/mcp`),
 *   with `scopes_supported` from the manifest's scope vocabulary;
 * - bearer verification where every failure, whatever the verifier threw,
 *   is a 401 carrying `resource_metadata` (the reason goes to the log, not
 *   to the client, unless it is an `OAuthError` meant for it);
 * - the 403 `insufficient_scope` challenge (with `scope` and
 *   `resource_metadata`) for a call whose declared scopes the token lacks.
 */
import { OAuthError, OAuthErrorCode, bearerAuthChallengeResponse, verifyBearerToken, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';

/** How HTTP requests are authenticated (see docs/security.md). */
export interface HttpAuthOptions {
  /** Checks a token and returns its `AuthInfo` (with `expiresAt`, `scopes`, and `resource` from the token's audience). */
  readonly verifier: OAuthTokenVerifier;
  /**
   * Issuer URLs of the authorization servers that issue tokens for this server, listed in the
   * Protected Resource Metadata (`authorization_servers`; the specification asks for at least one).
   */
  readonly authorizationServers?: readonly string[];
  /**
   * The resource identifier tokens must be issued for (RFC 8707), and the `resource` of the metadata;
   * tokens for another resource are refused with 401. Default: {@link HttpAuthOptions.publicUrl}, else
   * this endpoint's listening URL. Set it behind a reverse proxy or TLS terminator.
   */
  readonly expectedResource?: URL;
  /** The URL clients use to reach the endpoint (behind a proxy: `https://mcp.example.com/mcp`). Default: the listening URL. */
  readonly publicUrl?: URL;
  /** Protected Resource Metadata URL advertised in `WWW-Authenticate`. Default: the path-suffixed well-known URL of the resource. */
  readonly resourceMetadataUrl?: string;
  /** `scopes_supported` of the metadata. Default: every scope the manifest declares. */
  readonly scopesSupported?: readonly string[];
  /**
   * Answer a call whose declared scopes the token lacks with HTTP 403 `insufficient_scope` (so clients
   * can step up), instead of an in-protocol refusal. Default true.
   */
  readonly scopeChallenge?: boolean;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The well-known metadata URL of `resource` (RFC 9728 §3.1: the well-known path goes before the resource's path). */
export function resourceMetadataUrlOf(resource: URL): string {
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  return `${resource.origin}${WELL_KNOWN}${path}`;
}

/** The authentication surface of one endpoint. */
export interface BearerGate {
  /** The verified token of the `Authorization` header's value, or the 401 answer. */
  authenticate(authorization: string | undefined): Promise<AuthInfo | Response>;
  /** The metadata document when `request` asks for it, else undefined. */
  metadata(request: Request): Promise<Response | undefined>;
  /** The 403 `insufficient_scope` answer naming `missing`. */
  insufficientScope(missing: readonly string[], description: string): Response;
  /** Whether calls short of scopes get the 403 challenge. */
  readonly challengesScopes: boolean;
}

/**
 * Builds the gate for an endpoint listening at `endpoint`. `manifestScopes` resolves the manifest's
 * scope vocabulary (from a server instance) when the metadata is first asked for.
 */
export function bearerGate(auth: HttpAuthOptions, endpoint: URL, manifestScopes: () => Promise<readonly string[]>, log: (line: string) => void): BearerGate {
  const resource = auth.expectedResource ?? auth.publicUrl ?? endpoint;
  const resourceMetadataUrl = auth.resourceMetadataUrl ?? resourceMetadataUrlOf(resource);
  // Both forms the specification lets clients try: path-suffixed first, then the root.
  const metadataPaths = new Set([new URL(resourceMetadataUrlOf(resource)).pathname, WELL_KNOWN]);
  return {
    challengesScopes: auth.scopeChallenge !== false,
    async authenticate(authorization) {
      try {
        return await verifyBearerToken(authorization, { verifier: auth.verifier, expectedResource: resource, resourceMetadataUrl });
      } catch (error) {
        return unauthorized(error, resourceMetadataUrl, log);
      }
    },
    async metadata(request) {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !metadataPaths.has(new URL(request.url).pathname)) return undefined;
      const document = {
        resource: resource.href,
        authorization_servers: [...(auth.authorizationServers ?? [])],
        // Refresh tokens are not a resource requirement (2026-07-28 authorization, "Refresh Tokens").
        scopes_supported: (auth.scopesSupported ?? (await manifestScopes())).filter((scope) => scope !== 'offline_access'),
        bearer_methods_supported: ['header'],
      };
      // A public document: browser-based clients read it across origins.
      return Response.json(document, { headers: { 'access-control-allow-origin': '*', 'cache-control': 'max-age=3600' } });
    },
    insufficientScope(missing, description) {
      return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, description), { requiredScopes: [...missing], resourceMetadataUrl });
    },
  };
}

/**
 * Every verification failure is a 401 with the challenge: an `OAuthError` keeps its description (it was
 * written for the client), anything else is logged and described generically, so a verifier's internals
 * never reach the caller and a thrown `Error` is not a silent 500.
 */
function unauthorized(error: unknown, resourceMetadataUrl: string, log: (line: string) => void): Response {
  const reason = error instanceof Error ? error.message : String(error);
  log(`bearer token refused: ${reason}`);
  const forClient = error instanceof OAuthError && error.code === OAuthErrorCode.InvalidToken ? error.message : 'The access token is invalid or could not be verified';
  return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, forClient), { resourceMetadataUrl });
}
