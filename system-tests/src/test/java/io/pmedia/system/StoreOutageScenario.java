package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;

/**
 * store-outage: the object store goes down while renders and a try-on are in flight. A store that is down is a
 * transient failure, retried, never reported as the vendor's FAILURE; the outputs are uploaded once it is back.
 */
class StoreOutageScenario {

    @Test
    void rendersAndTryOnsInFlightWhenTheStoreIsDownFinishOnceItIsBack() {
        int requests = Chaos.size(6, 100);
        Duration outage = Chaos.size(Duration.ofSeconds(8), Duration.ofSeconds(20));
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos store-outage", receiver.url());
            String useCase = ChaosTemplates.tiny();
            String image = Stack.storeUrl(Stack.upload(vendor, "model.png", Stack.png("0x336699", 300, 600)));

            Map<String, String> byClientRequestId = new HashMap<>();
            for (int i = 0; i < requests; i++) {
                String clientRequestId = "store-outage-" + UUID.randomUUID();
                byClientRequestId.put(clientRequestId, vendor.json(Map.of("client-request-id", clientRequestId,
                        "customer-id", "c", "user-id", "u-" + i, "use-case-id", useCase,
                        "data", Map.of("personalization_fields", Map.of("name", "Ada " + i)))).post("/media/demo")
                        .then().statusCode(200).extract().path("service-request-id"));
            }
            String tryOn = vendor.json(Map.of("user-id", "u", "usecase-id", "chaos", "model-image", image,
                    "garment-image", List.of(image), "category", "tops")).post("/vton/request").then()
                    .statusCode(200).extract().path("request-id");

            Chaos.pmedia("kill", "s3proxy");
            Instant killed = Instant.now();
            Patience.await().pollDelay(outage).atMost(outage.plusSeconds(1)).until(() -> true);
            Chaos.pmedia("start", "s3proxy");
            Instant back = Instant.now();

            Map<String, String> finalStatus = new HashMap<>();
            await().atMost(Chaos.size(Duration.ofMinutes(3), Duration.ofMinutes(10)))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> {
                        KafkaOutageScenario.pollSome(vendor, byClientRequestId, finalStatus);
                        return finalStatus.size() == requests;
                    });
            String tryOnStatus = Stack.finalTryOn(vendor, tryOn).getString("status");
            Patience.await().until(() -> byClientRequestId.keySet().stream()
                    .filter(id -> "SUCCESS".equals(finalStatus.get(id))).allMatch(receiver::pushed));
            double recovery = Duration.between(back, Instant.now()).toMillis() / 1000.0;

            long failed = finalStatus.values().stream().filter("FAILURE"::equals).count();
            String line = Chaos.report("store-outage", requests + 1, finalStatus.size() + 1, receiver.distinct(),
                    (int) failed + ("SUCCESS".equals(tryOnStatus) ? 0 : 1), receiver.requestsPushedTwice(), recovery,
                    "store down " + outage.toSeconds() + " s from " + Duration.between(killed, back).toSeconds()
                            + " s; " + failed + " renders reported FAILURE; try-on " + tryOnStatus);
            assertThat(failed).as(line).isZero();
            assertThat(tryOnStatus).as(line).isEqualTo("SUCCESS");
            assertThat(receiver.distinct()).as(line).isEqualTo(requests);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("start", "s3proxy");
        }
    }
}
