package io.pmedia.common.tracing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where spans go (docs/operations.md, "Traces"). Tracing itself is on or off with {@code quarkus.otel.sdk.disabled}
 * ({@code PMEDIA_OTEL_DISABLED}).
 */
@ConfigMapping(prefix = "pmedia.tracing")
public interface TracingConfig {

    /**
     * {@code otlp}: Quarkus' OTLP exporter to {@code quarkus.otel.exporter.otlp.endpoint} (Kubernetes); {@code zipkin}:
     * {@link #zipkinEndpoint()} (the local stack's {@code PMEDIA_TRACING=1}). {@code PMEDIA_TRACING_EXPORTER}.
     */
    @WithDefault("otlp")
    String exporter();

    /**
     * The share of requests traced, 0 to 1 ({@code PMEDIA_TRACING_SAMPLE_RATIO}); a hop follows the decision of the
     * trace it joins.
     */
    @WithDefault("1.0")
    double sampleRatio();

    /** Zipkin's span endpoint ({@code PMEDIA_ZIPKIN_ENDPOINT}). */
    @WithDefault("http://127.0.0.1:9411/api/v2/spans")
    String zipkinEndpoint();
}
