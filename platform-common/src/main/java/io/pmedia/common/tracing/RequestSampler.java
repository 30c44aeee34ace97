package io.pmedia.common.tracing;

import java.util.List;

import jakarta.inject.Singleton;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import io.quarkus.arc.Unremovable;

/**
 * Which traces are kept: those a request or a message starts (a server, consumer or producer span), a share of them
 * ({@code pmedia.tracing.sample-ratio}, decided once per trace and followed by every hop). A database or HTTP call
 * made by background work with no trace of its own (the outbox relay's poll, the notifier's claims, a scheduler's
 * sweep: several a second on every replica) would be a one-span trace each; those are not recorded. Quarkus uses this
 * bean in place of its configured sampler, and still drops its health and metrics routes.
 */
@Singleton
@Unremovable
public class RequestSampler implements Sampler {

    private final Sampler requests;

    public RequestSampler(TracingConfig config) {
        this.requests = Sampler.parentBased(Sampler.traceIdRatioBased(config.sampleRatio()));
    }

    @Override
    public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
            Attributes attributes, List<LinkData> parentLinks) {
        boolean root = !Span.fromContext(parentContext).getSpanContext().isValid();
        if (root && (spanKind == SpanKind.CLIENT || spanKind == SpanKind.INTERNAL)) {
            return SamplingResult.drop();
        }
        return requests.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
    }

    @Override
    public String getDescription() {
        return "RequestSampler{" + requests.getDescription() + "}";
    }
}
