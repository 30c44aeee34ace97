package io.pmedia.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * One realtime request is one trace (docs/operations.md, "Traces"): from the gateway through media-service, across
 * Kafka to the render worker, back through the render result and the status event's outbox, to the notifier's webhook
 * push. Read from the tracing backend the local stack runs with {@code PMEDIA_TRACING=1} (Zipkin), as a developer
 * would look at it.
 */
class TraceTest {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void aRealtimeRequestIsOneTraceFromTheGatewayToTheWebhookPush() throws Exception {
        String zipkin = Stack.env().get("PMEDIA_ZIPKIN_URL");
        assumeTrue(zipkin != null && !zipkin.isBlank(),
                "tracing is off in this stack: ./pmedia down; PMEDIA_TRACING=1 ./pmedia up");

        ConcurrentLinkedQueue<String> pushes = new ConcurrentLinkedQueue<>();
        HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/", exchange -> {
            String traceParent = exchange.getRequestHeaders().getFirst("traceparent");
            pushes.add(traceParent == null ? "no traceparent" : traceParent);
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        sink.start();
        Vendor vendor = Stack.onboard("trace", "http://127.0.0.1:" + sink.getAddress().getPort() + "/push");
        try {
            // The vendor's own trace context: the gateway continues it, so the whole request is found by its id.
            String traceId = hex(16);
            String callerSpan = hex(8);
            Map<String, Object> body = Map.of("client-request-id", "trace-" + UUID.randomUUID(), "customer-id",
                    "c-1", "user-id", "u-1", "use-case-id", Stack.env().get("PMEDIA_DEMO_USE_CASE_ID"), "data",
                    Map.of("personalization_fields", Map.of("name", "Trace")));
            String id = vendor.json(body).header("traceparent", "00-" + traceId + "-" + callerSpan + "-01")
                    .post("/media/demo").then().statusCode(200).extract().path("service-request-id");
            JsonPath ended = Stack.finalStatus(vendor, id);
            assertThat(ended.getString("status")).as(ended.prettify()).isEqualTo("SUCCESS");
            Patience.await().until(() -> !pushes.isEmpty());
            assertThat(pushes).as("the trace context stays inside the platform").containsOnly("no traceparent");

            Patience.await().pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                List<Map<String, Object>> spans = given().get(zipkin + "/api/v2/trace/" + traceId).then()
                        .statusCode(200).extract().jsonPath().getList("$");
                assertThat(names(spans)).as("spans of trace %s", traceId).contains(
                        "gateway-service: post /media/demo",
                        "media-service: post /media/demo",
                        "media-service: pmedia.render.jobs publish",
                        "media-service: pmedia.render.jobs process",
                        "media-service: pmedia.render.results process",
                        "media-service: pmedia.media.status publish",
                        "notifier-service: webhook video.push");
                // One tree: every span's parent is a span of the trace, except the root, whose parent is the caller's.
                Set<String> ids = spans.stream().map(span -> (String) span.get("id")).collect(Collectors.toSet());
                assertThat(spans).allSatisfy(span -> assertThat((String) span.get("parentId"))
                        .as("parent of %s", span.get("name")).isIn(union(ids, callerSpan)));
                assertThat(spans).filteredOn(span -> callerSpan.equals(span.get("parentId")))
                        .extracting(span -> name(span)).containsExactly("gateway-service: post /media/demo");
            });
        } finally {
            Stack.delete(vendor);
            sink.stop(0);
        }
    }

    private static List<String> names(List<Map<String, Object>> spans) {
        return spans.stream().map(TraceTest::name).toList();
    }

    @SuppressWarnings("unchecked")
    private static String name(Map<String, Object> span) {
        Map<String, Object> endpoint = (Map<String, Object>) span.get("localEndpoint");
        return endpoint.get("serviceName") + ": " + span.get("name");
    }

    private static Set<String> union(Set<String> ids, String one) {
        return Stream.concat(ids.stream(), Stream.of(one)).collect(Collectors.toSet());
    }

    private static String hex(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }
}
