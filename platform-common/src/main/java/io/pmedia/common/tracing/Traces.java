package io.pmedia.common.tracing;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.mutiny.Uni;

/**
 * Trace context across the places no instrumentation follows on its own (docs/operations.md, "Traces"): the outbox
 * row, the Kafka records the outbox relay and the render workers produce, a webhook delivery's row. The context
 * travels as one W3C {@code traceparent} value ({@value #HEADER}); each hop starts its span as a child of it, so a
 * realtime request is one trace from the gateway to the webhook push.
 * <p>
 * Only for what crosses Kafka like that (a context carried in a record, its headers or a stored row): a span that is a
 * method is {@code @WithSpan} on that method (issue 34, docs/decisions.md).
 * <p>
 * With tracing off ({@code quarkus.otel.sdk.disabled=true}, the local default) the tracer is a no-op: no span is
 * valid, {@link #currentParent()} is null, and nothing is stored or sent.
 */
@ApplicationScoped
public class Traces {

    /** The W3C Trace Context header, also the Kafka record header. */
    public static final String HEADER = "traceparent";

    private static final TextMapGetter<String> VALUE = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(HEADER);
        }

        @Override
        public String get(String carrier, String key) {
            return HEADER.equals(key) ? carrier : null;
        }
    };

    private final Tracer tracer;

    public Traces(Tracer tracer) {
        this.tracer = tracer;
    }

    /** The {@code traceparent} of the current span, or null when there is none (tracing off, or no trace). */
    public static String currentParent() {
        return parentOf(Context.current());
    }

    /** The {@code traceparent} of the span in {@code context}, or null when it holds no valid span. */
    public static String parentOf(Context context) {
        if (!Span.fromContext(context).getSpanContext().isValid()) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>(2);
        W3CTraceContextPropagator.getInstance().inject(context, carrier, Map::put);
        return carrier.get(HEADER);
    }

    /** The {@code traceparent} header of a Kafka record, or null when it has none. */
    public static String fromHeaders(Headers headers) {
        Header header = headers.lastHeader(HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The context a stored or received {@code traceparent} names; the root context when it is null or malformed. */
    public static Context contextOf(String traceParent) {
        if (traceParent == null || traceParent.isBlank()) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceParent, VALUE);
    }

    /** A span of {@code kind} named {@code name}, child of {@code traceParent} (a new trace when null). */
    public SpanBuilder builder(String name, SpanKind kind, String traceParent) {
        return tracer.spanBuilder(name).setSpanKind(kind).setParent(contextOf(traceParent));
    }

    /**
     * A span of one Kafka record's {@code operation} ({@code publish} or {@code process}), named and tagged as
     * OpenTelemetry's messaging conventions say, child of {@code traceParent}.
     */
    public SpanBuilder kafka(String operation, SpanKind kind, String topic, String key, String traceParent) {
        return builder(topic + " " + operation, kind, traceParent)
                .setAttribute("messaging.system", "kafka")
                .setAttribute("messaging.operation.type", operation.equals("publish") ? "send" : operation)
                .setAttribute("messaging.destination.name", topic)
                .setAttribute("messaging.kafka.message.key", String.valueOf(key));
    }

    /** Puts {@code traceParent} on a Kafka record's headers; nothing when it is null (no trace). */
    public static void inject(Headers headers, String traceParent) {
        if (traceParent != null) {
            headers.add(HEADER, traceParent.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Runs {@code work} inside the span {@code builder} starts, current while it runs (on the caller's Vert.x context,
     * so through the reactive calls it makes), ended when its result is known.
     */
    public <T> Uni<T> within(SpanBuilder builder, Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> {
            Span span = builder.startSpan();
            Scope scope = span.makeCurrent();
            Uni<T> result;
            try {
                result = work.get();
            } catch (RuntimeException e) {
                scope.close();
                end(span, e);
                throw e;
            }
            return result.onTermination().invoke((item, failure, cancelled) -> {
                scope.close();
                end(span, failure);
            });
        });
    }

    /** Ends {@code span}, marked as failed with {@code failure} unless that is null. */
    public static void end(Span span, Throwable failure) {
        if (failure != null) {
            failed(span, failure);
        }
        span.end();
    }

    /** Marks {@code span} as failed with {@code failure}. */
    public static void failed(Span span, Throwable failure) {
        span.recordException(failure);
        span.setStatus(StatusCode.ERROR, failure.getMessage() == null
                ? failure.getClass().getSimpleName()
                : failure.getMessage());
    }
}
