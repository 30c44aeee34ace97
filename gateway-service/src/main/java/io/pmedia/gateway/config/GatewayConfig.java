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
    }

    /** Token buckets on the token endpoints: a burst, then a steady refill. */
    interface RateLimit {

        /** Attempts per presented client id, whatever their outcome. */
        @WithDefault("60")
        int perClientBurst();

        @WithDefault("1")
        double perClientPerSecond();

        /** Failed attempts per presented client id (password guessing). */
        @WithDefault("10")
        int failuresBurst();

        @WithDefault("0.2")
        double failuresPerSecond();

        /** Attempts per source address. */
        @WithDefault("300")
        int perAddressBurst();

        @WithDefault("5")
        double perAddressPerSecond();
    }
}
