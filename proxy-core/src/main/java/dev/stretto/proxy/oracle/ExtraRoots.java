package dev.stretto.proxy.oracle;

import dev.stretto.proxy.io.IoMessages;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS context that trusts the JDK's own root certificates and, besides them, those of a PEM
 * file ({@code SSL_CERT_FILE}): a company proxy's or a test service's root.
 */
final class ExtraRoots {

    private ExtraRoots() {
    }

    /**
     * @throws IllegalArgumentException if the file cannot be read or holds no certificate
     */
    static SSLContext context(Path pemFile) {
        try {
            KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
            roots.load(null, null);
            int n = 0;
            for (X509Certificate c : defaultTrustManager().getAcceptedIssuers()) {
                roots.setCertificateEntry("jdk-" + n++, c);
            }
            Collection<? extends Certificate> extra;
            try (InputStream in = Files.newInputStream(pemFile)) {
                extra = CertificateFactory.getInstance("X.509").generateCertificates(in);
            } catch (IOException e) {
                throw new IllegalArgumentException("the certificate file " + pemFile + " cannot be read: "
                        + IoMessages.describe(e), e);
            } catch (java.security.cert.CertificateException e) {
                throw new IllegalArgumentException("the certificate file " + pemFile
                        + " does not hold PEM certificates: " + e.getMessage(), e);
            }
            if (extra.isEmpty()) {
                throw new IllegalArgumentException("the certificate file " + pemFile + " holds no certificate");
            }
            int m = 0;
            for (Certificate c : extra) {
                roots.setCertificateEntry("extra-" + m++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(roots);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS with the extra roots of " + pemFile + ": " + e, e);
        }
    }

    private static X509TrustManager defaultTrustManager() throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init((KeyStore) null);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return x;
            }
        }
        throw new IllegalStateException("the JDK has no X.509 trust manager");
    }
}
