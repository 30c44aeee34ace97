package io.pmedia.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;

class TracesTest {

    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final SdkTracerProvider provider = SdkTracerProvider.builder().build();
    private final Traces traces = new Traces(provider.get("test"));

    @Test
    void aSpanStartedFromAStoredTraceParentContinuesItsTraceAndIsWhatTheNextHopStores() {
        Span span = traces.kafka("process", SpanKind.CONSUMER, "pmedia.render.jobs", "job-1", PARENT).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            String next = Traces.currentParent();
            assertThat(next).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-")
                    .doesNotContain("00f067aa0ba902b7").endsWith("-01");
            assertThat(next.split("-")[2]).isEqualTo(span.getSpanContext().getSpanId());
        } finally {
            span.end();
        }
    }

    @Test
    void noTraceMeansNothingToStoreAndAMalformedOneStartsANewTrace() {
        assertThat(Traces.currentParent()).isNull();
        assertThat(Span.fromContext(Traces.contextOf("not a traceparent")).getSpanContext().isValid()).isFalse();
        assertThat(Span.fromContext(Traces.contextOf(null)).getSpanContext().isValid()).isFalse();
    }

    @Test
    void theTraceParentOfAKafkaRecordIsItsLastHeader() {
        RecordHeaders headers = new RecordHeaders();
        assertThat(Traces.fromHeaders(headers)).isNull();
        headers.add(Traces.HEADER, PARENT.getBytes(StandardCharsets.UTF_8));
        assertThat(Traces.fromHeaders(headers)).isEqualTo(PARENT);
    }

    @Test
    void backgroundCallsOutsideAnyTraceAreNotRecordedButRequestsAndTheirCallsAre() {
        RequestSampler sampler = new RequestSampler(new TracingConfig() {
            @Override
            public String exporter() {
                return "otlp";
            }

            @Override
            public double sampleRatio() {
                return 1.0;
            }

            @Override
            public String zipkinEndpoint() {
                return "";
            }
        });
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        assertThat(decision(sampler, Context.root(), traceId, SpanKind.CLIENT)).isEqualTo(SamplingDecision.DROP);
        assertThat(decision(sampler, Context.root(), traceId, SpanKind.INTERNAL)).isEqualTo(SamplingDecision.DROP);
        assertThat(decision(sampler, Context.root(), traceId, SpanKind.SERVER))
                .isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
        assertThat(decision(sampler, Context.root(), traceId, SpanKind.CONSUMER))
                .isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
        assertThat(decision(sampler, Traces.contextOf(PARENT), traceId, SpanKind.CLIENT))
                .isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
        assertThat(decision(sampler, Traces.contextOf(PARENT.replace("-01", "-00")), traceId, SpanKind.SERVER))
                .as("an unsampled caller is not traced").isEqualTo(SamplingDecision.DROP);
    }

    private static SamplingDecision decision(RequestSampler sampler, Context parent, String traceId, SpanKind kind) {
        return sampler.shouldSample(parent, traceId, "x", kind, Attributes.empty(), List.of()).getDecision();
    }
}
