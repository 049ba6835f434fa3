/**
 * Internal: signing in to an MCP server that needs OAuth, as the MCP authorization spec has it.
 * {@link dev.stretto.proxy.oauth.Authorizer} is the HTTP upstream's side of it ({@link
 * dev.stretto.proxy.oauth.UpstreamAuth}, the one seam with the transport): the login in use,
 * refreshed before it expires, and the sign-in a refusal starts ({@link
 * dev.stretto.proxy.oauth.SignIn}: the resource's and the authorization server's metadata, a
 * client, PKCE through the browser and the {@link dev.stretto.proxy.oauth.LoopbackCallback}, or
 * client credentials, at the {@link dev.stretto.proxy.oauth.TokenEndpoint}). Logins are kept in
 * a {@link dev.stretto.proxy.TokenStore}, the proxy's own being {@link
 * dev.stretto.proxy.oauth.DirectoryTokenStore}. Not exported by the module: a harness uses
 * {@link dev.stretto.proxy.OAuthSettings} and {@link dev.stretto.proxy.OAuthLogins}.
 */
package dev.stretto.proxy.oauth;
