/**
 * Internal: JSON web tokens for {@code private_key_jwt} (RFC 7523), with the JDK's own crypto:
 * private keys read from PKCS #8 PEM text and the JWS algorithm each kind signs with ({@link
 * dev.stretto.proxy.jwt.PemKeys}), and the client assertions signed with them ({@link
 * dev.stretto.proxy.jwt.JwtAssertion}). Below both the exported settings, which check a key
 * when they are given one, and the sign-in, which signs with it. Not exported by the module.
 */
package dev.stretto.proxy.jwt;
