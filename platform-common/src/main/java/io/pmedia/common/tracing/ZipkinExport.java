package io.pmedia.common.tracing;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.quarkus.arc.Unremovable;
import io.quarkus.arc.lookup.LookupIfProperty;

import zipkin2.reporter.urlconnection.URLConnectionSender;

/**
 * Spans to a Zipkin server, for the local stack ({@code PMEDIA_TRACING=1 ./pmedia up} starts one and sets
 * {@code pmedia.tracing.exporter=zipkin}). Only then does this exporter exist; otherwise Quarkus' OTLP exporter sends
 * the spans to {@code quarkus.otel.exporter.otlp.endpoint} (the OpenTelemetry collector in Kubernetes). Quarkus
 * batches what any exporter bean receives.
 */
public class ZipkinExport {

    @Produces
    @Singleton
    @Unremovable
    @LookupIfProperty(name = "pmedia.tracing.exporter", stringValue = "zipkin")
    SpanExporter zipkin(TracingConfig config) {
        return ZipkinSpanExporter.builder().setSender(URLConnectionSender.create(config.zipkinEndpoint())).build();
    }
}
