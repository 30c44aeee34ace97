package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * on-view-kafka-outage (issue 37): links rendered on first view are opened while the broker is away (kill -9). Every
 * page answers at once with "being prepared" (never a 5xx: the claim waits in engagement's outbox); once the broker is
 * back every opened link is rendered, once, and its page plays its MP4.
 */
class OnViewKafkaOutageScenario {

    @Test
    void linksOpenedWhileTheBrokerIsDownAreRenderedOnceItIsBack() {
        int links = Chaos.size(3, 20);
        Duration outage = Chaos.size(Duration.ofSeconds(10), Duration.ofSeconds(60));
        Vendor vendor = Stack.onboard("chaos on-view-kafka-outage");
        try {
            OnViewLinks.Task task = OnViewLinks.create(vendor, ChaosTemplates.tinyId(), links);
            List<String> opened = task.links();

            Chaos.pmedia("kill", "kafka");
            Instant killed = Instant.now();
            try {
                for (String link : opened) {
                    assertThat(OnViewLinks.open(link)).as("the page of %s while the broker is down", link)
                            .isEqualTo(200);
                    assertThat(OnViewLinks.state(link)).isEqualTo("preparing");
                }
                Duration left = outage.minus(Duration.between(killed, Instant.now()));
                if (!left.isNegative()) {
                    Patience.await().pollDelay(left).atMost(left.plusSeconds(1)).until(() -> true);
                }
                assertThat(opened).as("nothing renders while the broker is away")
                        .allMatch(link -> "preparing".equals(OnViewLinks.state(link)));
            } finally {
                Chaos.pmedia("start", "kafka");
            }
            Instant back = Instant.now();
            Patience.await().atMost(Chaos.size(Duration.ofMinutes(3), Duration.ofMinutes(10)))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> opened.stream().allMatch(link -> "ready".equals(OnViewLinks.state(link))));
            double recovery = Duration.between(back, Instant.now()).toMillis() / 1000.0;
            int playing = (int) opened.stream().filter(OnViewLinks::playsMp4).count();
            JsonPath status = Stack.finalTask(vendor, task.id());
            int rendered = status.getInt("rendered");
            String line = Chaos.report("on-view-kafka-outage", links, rendered, playing, links - playing,
                    rendered - links, recovery, "broker down " + outage.toSeconds() + " s, every link opened meanwhile"
                            + " answered 200 'preparing'; pushed = pages playing their MP4; task viewed "
                            + status.getInt("viewed") + ", rendered " + rendered + ", render-failed "
                            + status.getInt("render-failed"));
            assertThat(playing).as(line).isEqualTo(links);
            assertThat(rendered).as(line).isEqualTo(links);
            assertThat(status.getInt("render-failed")).as(line).isZero();
        } finally {
            Stack.delete(vendor);
        }
    }
}
