package io.pmedia.vton.config;

import java.time.Duration;
import java.util.Optional;

import io.pmedia.vton.EngineKind;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "pmedia.vton")
public interface VtonConfig {

    /** {@code builtin} (the compositor in this service) or {@code fashn} (a FASHN-compatible provider). */
    @WithDefault("builtin")
    EngineKind engine();

    /** How often a replica looks for requests to work on (it also starts at once on a new request). */
    @WithDefault("1s")
    Duration pollEvery();

    /** Requests one replica works on at once. */
    @WithDefault("2")
    int concurrency();

    /** How long a claimed request belongs to the replica that claimed it; a dead replica's work is taken over after. */
    @WithDefault("3m")
    Duration lease();

    /** Claims of one request before it ends FAILURE. */
    @WithDefault("3")
    int maxAttempts();

    /**
     * When the object store could not be reached during an attempt, the request is tried again after this, without
     * spending an attempt: a store outage is the platform's, not the vendor's.
     */
    @WithDefault("5s")
    Duration storeRetryDelay();

    /** Limits on the model and garment images. */
    @WithDefault("20000000")
    long maxImageBytes();

    /** Largest image accepted, in pixels (width x height), checked before decoding. */
    @WithDefault("40000000")
    long maxImagePixels();

    @WithDefault("30s")
    Duration fetchTimeout();

    /** Most garment images in one request (they are applied in order). */
    @WithDefault("4")
    int maxGarments();

    Fashn fashn();

    interface Fashn {

        /** The provider's API base, e.g. {@code https://api.fashn.ai/v1}; {@code /run} and {@code /status/{id}} below it. */
        @WithDefault("https://api.fashn.ai/v1")
        String baseUrl();

        /** Sent as {@code Authorization: Bearer}; required when the engine is {@code fashn}. */
        Optional<String> apiKey();

        @WithDefault("tryon-v1.6")
        String modelName();

        @WithDefault("2s")
        Duration pollInterval();

        /** Longest wait for one prediction. */
        @WithDefault("2m")
        Duration timeout();
    }
}
