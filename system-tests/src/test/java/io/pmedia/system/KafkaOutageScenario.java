package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.response.Response;

/**
 * kafka-outage: the broker is killed (kill -9) while realtime requests and a batch task are accepted. The API keeps
 * answering; once the broker is back, every request ends and each finished video is pushed exactly once.
 */
class KafkaOutageScenario {

    @Test
    void everyRequestAcceptedWhileTheBrokerIsDownEndsAndIsPushedOnce() {
        int requests = Chaos.size(12, 1000);
        Duration outage = Chaos.size(Duration.ofSeconds(10), Duration.ofSeconds(60));
        // Spread over vendors, each within its own creation budget (locally 10 a second, burst 50; docs/security.md):
        // the full size accepts 1,000 renders in 45 s, more than one vendor may start.
        int vendorCount = Chaos.size(1, 3);
        try (PushReceiver receiver = new PushReceiver()) {
            List<Vendor> vendors = new ArrayList<>();
            for (int v = 0; v < vendorCount; v++) {
                vendors.add(Stack.onboard("chaos kafka-outage " + v, receiver.url()));
            }
            Vendor vendor = vendors.get(0);
            String useCase = ChaosTemplates.tiny();
            String input = Stack.upload(vendor, "customers.csv",
                    "user-id,name\nk-1,Ada\nk-2,Grace\nk-3,Edsger\n".getBytes(StandardCharsets.UTF_8));

            Chaos.pmedia("kill", "kafka");
            Instant killed = Instant.now();
            List<Map<String, String>> byClientRequestId = new ArrayList<>();
            vendors.forEach(v -> byClientRequestId.add(new HashMap<>()));
            long slowestAcceptance = 0;
            for (int i = 0; i < requests; i++) {
                String clientRequestId = "kafka-outage-" + UUID.randomUUID();
                long started = System.nanoTime();
                Response accepted = vendors.get(i % vendorCount)
                        .json(Map.of("client-request-id", clientRequestId, "customer-id", "c",
                                "user-id", "u-" + i, "use-case-id", useCase,
                                "data", Map.of("personalization_fields", Map.of("name", "Ada " + i))))
                        .post("/media/demo");
                slowestAcceptance = Math.max(slowestAcceptance, (System.nanoTime() - started) / 1_000_000);
                assertThat(accepted.statusCode()).as(accepted.asString()).isEqualTo(200);
                assertThat(accepted.jsonPath().getString("status")).isEqualTo("SUCCESS");
                byClientRequestId.get(i % vendorCount).put(clientRequestId,
                        accepted.jsonPath().getString("service-request-id"));
                pace(killed, outage, i, requests);
            }
            String task = vendor.json(Map.of("campaign-id", "chaos", "template-id", ChaosTemplates.tinyId(),
                    "file-path", input, "row-count", 3, "expected-output-duration", 10)).post("/media/task/create")
                    .then().statusCode(200).extract().path("task-id");
            Duration left = outage.minus(Duration.between(killed, Instant.now()));
            if (!left.isNegative()) {
                Patience.await().pollDelay(left).atMost(left.plusSeconds(1)).until(() -> true);
            }

            Chaos.pmedia("start", "kafka");
            Instant back = Instant.now();
            Map<String, String> finalStatus = new HashMap<>();
            await().atMost(Chaos.size(Duration.ofMinutes(3), Duration.ofMinutes(15)))
                    .pollInterval(Duration.ofSeconds(2)).until(() -> {
                        for (int v = 0; v < vendorCount; v++) {
                            pollSome(vendors.get(v), byClientRequestId.get(v), finalStatus);
                        }
                        return finalStatus.size() == requests && finalStatus.entrySet().stream()
                                .filter(entry -> "SUCCESS".equals(entry.getValue()))
                                .allMatch(entry -> receiver.pushed(entry.getKey()));
                    });
            double recovery = Duration.between(back, Instant.now()).toMillis() / 1000.0;
            String taskStatus = Stack.finalTask(vendor, task).getString("status");

            long succeeded = finalStatus.values().stream().filter("SUCCESS"::equals).count();
            int lost = requests - finalStatus.size();
            String line = Chaos.report("kafka-outage", requests, finalStatus.size(), receiver.distinct(), lost,
                    receiver.requestsPushedTwice(), recovery, "broker down " + outage.toSeconds()
                            + " s, slowest acceptance " + slowestAcceptance + " ms, batch task " + taskStatus);
            assertThat(succeeded).as(line).isEqualTo(requests);
            assertThat(receiver.distinct()).as(line).isEqualTo(requests);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            assertThat(taskStatus).as(line).isEqualTo("COMPLETED");
            vendors.forEach(Stack::delete);
        } finally {
            Chaos.pmedia("start", "kafka");
        }
    }

    /** Spreads the requests over the outage's first three quarters. */
    private static void pace(Instant from, Duration outage, int sent, int total) {
        Instant due = from.plus(outage.multipliedBy(3).dividedBy(4).multipliedBy(sent + 1).dividedBy(total));
        Duration wait = Duration.between(Instant.now(), due);
        if (wait.toMillis() > 0) {
            Patience.await().pollDelay(wait).atMost(wait.plusSeconds(1)).until(() -> true);
        }
    }

    /** Polls at most 100 unfinished requests a round, so that the vendor stays within its API budget. */
    static void pollSome(Vendor vendor, Map<String, String> byClientRequestId, Map<String, String> finalStatus) {
        List<Map.Entry<String, String>> open = new ArrayList<>(byClientRequestId.entrySet());
        open.removeIf(entry -> finalStatus.containsKey(entry.getKey()));
        for (Map.Entry<String, String> entry : open.subList(0, Math.min(100, open.size()))) {
            Response status = vendor.call().get("/status/" + entry.getValue());
            if (status.statusCode() == 200 && !"PROCESSING".equals(status.jsonPath().getString("status"))) {
                finalStatus.put(entry.getKey(), status.jsonPath().getString("status"));
            }
        }
    }
}
