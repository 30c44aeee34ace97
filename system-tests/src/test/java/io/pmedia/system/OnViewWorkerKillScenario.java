package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * on-view-worker-kill (issue 37): a link rendered on first view is opened, and the render worker rendering it is killed
 * (kill -9) mid-render. Another worker renders the row, once; the page, which said "being prepared" all along, plays.
 */
class OnViewWorkerKillScenario {

    @Test
    void aLinkWhoseRenderWorkerDiesIsRenderedByAnotherAndPlays() {
        int links = Chaos.size(1, 3);
        List<String> startedHere = WorkerKillScenario.RENDERERS.stream().filter(name -> !Chaos.running(name))
                .toList();
        Chaos.pmedia(Map.of("PMEDIA_MEDIA_ROLE", "api"), "restart", "media");
        startedHere.forEach(name -> Chaos.pmedia("start", name));
        String killedName = null;
        Vendor vendor = Stack.onboard("chaos on-view-worker-kill");
        try {
            // The demo template (a few seconds to render), so that a worker is caught with its FFmpeg.
            OnViewLinks.Task task = OnViewLinks.create(vendor, Stack.env().get("PMEDIA_DEMO_TEMPLATE_ID"), links);
            double slowestRecovery = 0;
            for (String link : task.links()) {
                assertThat(OnViewLinks.open(link)).isEqualTo(200);
                String[] renderer = new String[1];
                Patience.await().pollInterval(Duration.ofMillis(20))
                        .until(() -> (renderer[0] = WorkerKillScenario.rendering().orElse(null)) != null);
                killedName = renderer[0];
                Chaos.pmedia("kill", killedName);
                Instant killed = Instant.now();
                assertThat(OnViewLinks.state(link)).as("the page while its render is lost").isNotEqualTo("failed");
                Patience.await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                        .until(() -> !"preparing".equals(OnViewLinks.state(link)));
                slowestRecovery = Math.max(slowestRecovery,
                        Duration.between(killed, Instant.now()).toMillis() / 1000.0);
                assertThat(OnViewLinks.state(link)).isEqualTo("ready");
                Chaos.pmedia("start", killedName);
                killedName = null;
            }
            int playing = (int) task.links().stream().filter(OnViewLinks::playsMp4).count();
            JsonPath status = Stack.finalTask(vendor, task.id());
            int rendered = status.getInt("rendered");
            String line = Chaos.report("on-view-worker-kill", links, rendered, playing, links - playing,
                    rendered - links, slowestRecovery, "the worker rendering an opened link killed mid-render, "
                            + "recovery = kill to the page ready, slowest; pushed = pages playing their MP4; "
                            + "render-failed " + status.getInt("render-failed"));
            assertThat(playing).as(line).isEqualTo(links);
            assertThat(rendered).as(line).isEqualTo(links);
            assertThat(status.getInt("render-failed")).as(line).isZero();
        } finally {
            if (killedName != null) {
                Chaos.pmedia("start", killedName);
            }
            Stack.delete(vendor);
            startedHere.forEach(name -> Chaos.pmedia("stop", name));
            Chaos.pmedia("restart", "media");
        }
    }
}
