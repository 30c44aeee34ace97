package io.pmedia.gateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Everything the gateway is told from outside: keys, operator secrets, where the domain services live, limits. */
@ConfigMapping(prefix = "pmedia")
public interface GatewayConfig {

    Jwt jwt();

    /** The operator's token for {@code /admin/...}; without it every admin call is 401. */
    Optional<String> adminToken();

    /** The token services present on {@code /internal/...} (the notifier reading the client registry). */
    Optional<String> internalToken();

    Gateway gateway();

    interface Jwt {

        /** PKCS#8 PEM file of the RSA key that signs tokens. */
        String privateKey();

        @WithDefault("dev-1")
        String keyId();

        /** JWKS file of further public keys still accepted (the previous key during a rotation). */
        Optional<String> publicKeys();

        @WithDefault("https://pmedia.local/gateway")
        String issuer();

        @WithDefault("pmedia-api")
        String audience();

        /** Lifetime of {@code POST /auth/token} tokens. */
        @WithDefault("3600s")
        Duration lifetime();

        /** Lifetime of {@code GET /getToken} tokens (the earlier form). */
        @WithDefault("86400s")
        Duration legacyLifetime();

        /** Lifetime of the tokens the gateway mints to forward API-key and admin calls. */
        @WithDefault("120s")
        Duration forwardLifetime();
    }

    interface Gateway {

        Services services();

        /**
         * Peers whose {@code X-Forwarded-For} is believed (load balancers, ingress). Anyone else's is ignored and
         * the TCP peer is the caller.
         */
        Optional<List<String>> trustedProxies();

        /** How long a forwarded call may take before the gateway answers 503. */
        @WithDefault("30s")
        Duration upstreamTimeout();

        RateLimit rateLimit();

        ApiLimits apiLimits();

        ViewerLimits viewerLimits();

        Deprecation deprecation();

        Console console();
    }

    /** The console at {@code /console} (docs/console.md). */
    interface Console {

        /**
         * Where the browser loads rendered media and presigned uploads from (the store's or CDN's public base URL);
         * its origin is allowed in the console's Content-Security-Policy. Empty: the console's own origin only.
         */
        Optional<String> mediaBaseUrl();
    }

    /**
     * Viewers of share pages ({@code /v/}, no credentials): a budget per source address and replica, so that one
     * address's flood gets 429 and leaves the pages, and the vendor API, to everyone else (docs/sharing.md).
     */
    interface ViewerLimits {

        @WithDefault("120")
        int burst();

        @WithDefault("20")
        double perSecond();
    }

    /**
     * A vendor's API budget for the whole cluster: every forwarded call, and again the calls that start work
     * ({@code POST /media/demo}, {@code /video/demo}, {@code /media/task/create}, {@code /vton/request}).
     */
    interface ApiLimits {

        @WithDefault("true")
        boolean enabled();

        @WithDefault("400")
        int callsBurst();

        @WithDefault("200")
        double callsPerSecond();

        @WithDefault("100")
        int creationsBurst();

        @WithDefault("20")
        double creationsPerSecond();
    }

    /**
     * The earlier interface generation ({@code GET /getToken}, {@code POST /video/demo}): when it was deprecated and
     * when it goes away, announced on every answer of those paths (docs/versioning.md).
     */
    interface Deprecation {

        @WithDefault("2026-12-01T00:00:00Z")
        java.time.Instant since();

        @WithDefault("2027-12-01T00:00:00Z")
        java.time.Instant sunset();
    }

    interface Services {

        @WithDefault("http://127.0.0.1:8081")
        URI media();

        @WithDefault("http://127.0.0.1:8082")
        URI batch();

        @WithDefault("http://127.0.0.1:8083")
        URI vton();

        @WithDefault("http://127.0.0.1:8084")
        URI campaign();

        @WithDefault("http://127.0.0.1:8085")
        URI notifier();

        @WithDefault("http://127.0.0.1:8086")
        URI engagement();
    }

    /**
     * Token buckets on the token endpoints, shared by every replica: a burst, then a steady refill. Failures count
     * per (client id, address) and per address, never per client id alone (docs/security.md).
     */
    interface RateLimit {

        /** Tokens issued per client id (a token storm by the client itself; only the secret's holder can spend it). */
        @WithDefault("60")
        int perClientBurst();

        @WithDefault("1")
        double perClientPerSecond();

        /** Failed attempts per (presented client id, source address): password guessing. */
        @WithDefault("10")
        int failuresBurst();

        @WithDefault("0.2")
        double failuresPerSecond();

        /** Failed attempts per source address, whatever client ids it presents. */
        @WithDefault("30")
        int failuresPerAddressBurst();

        @WithDefault("0.5")
        double failuresPerAddressPerSecond();

        /** Attempts per source address. */
        @WithDefault("300")
        int perAddressBurst();

        @WithDefault("5")
        double perAddressPerSecond();
    }
}
