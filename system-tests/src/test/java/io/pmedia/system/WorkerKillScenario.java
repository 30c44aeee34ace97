package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * worker-kill: render workers in one consumer group; the one rendering a request is killed (kill -9) mid-render. Another
 * renders the job, and the request ends SUCCESS exactly once: one push.
 */
class WorkerKillScenario {

    static final List<String> RENDERERS = List.of("media-worker-1", "media-worker-2");

    @Test
    void aJobWhoseWorkerDiesIsRenderedByAnotherOnce() {
        int requests = Chaos.size(1, 5);
        // As in a cluster: media serves the API only, two workers render (PMEDIA_MEDIA_ROLE, docs/local-stack.md).
        // A worker the stack already runs (with Kafka ACLs it always runs one) stays when the scenario ends. A media
        // already in the API role (the stack runs workers) is neither restarted into it nor out of it.
        List<String> startedHere = RENDERERS.stream().filter(name -> !Chaos.running(name)).toList();
        boolean roleChangedHere = !"api".equals(Chaos.environmentOf("media", "PMEDIA_MEDIA_ROLE").orElse("both"));
        if (roleChangedHere) {
            Chaos.pmedia(Map.of("PMEDIA_MEDIA_ROLE", "api"), "restart", "media");
        }
        startedHere.forEach(name -> Chaos.pmedia("start", name));
        String killedName = null;
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos worker-kill", receiver.url());
            int ended = 0;
            double slowestRecovery = 0;
            for (int i = 0; i < requests; i++) {
                String id = Stack.render(vendor, Map.of("personalization_fields", Map.of("name", "Ada " + i)));
                String[] renderer = new String[1];
                Patience.await().pollInterval(Duration.ofMillis(20))
                        .until(() -> (renderer[0] = rendering().orElse(null)) != null);
                killedName = renderer[0];
                Chaos.pmedia("kill", killedName);
                Instant killed = Instant.now();
                JsonPath status = finalStatus(vendor, id);
                slowestRecovery = Math.max(slowestRecovery,
                        Duration.between(killed, Instant.now()).toMillis() / 1000.0);
                assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");
                ended++;
                Chaos.pmedia("start", killedName);
                killedName = null;
            }
            Patience.await().until(() -> receiver.distinct() >= requests);
            String line = Chaos.report("worker-kill", requests, ended, receiver.distinct(), requests - ended,
                    receiver.requestsPushedTwice(), slowestRecovery, "the rendering worker killed mid-render, "
                            + "recovery = kill to SUCCESS, slowest");
            assertThat(receiver.distinct()).as(line).isEqualTo(requests);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            if (killedName != null) {
                Chaos.pmedia("start", killedName);
            }
            startedHere.forEach(name -> Chaos.pmedia("stop", name));
            if (roleChangedHere) {
                Chaos.pmedia("restart", "media");
            }
        }
    }

    /** Waits longer than Stack.finalStatus: a killed worker's job comes back after its consumer's session times out. */
    private static JsonPath finalStatus(Vendor vendor, String id) {
        JsonPath[] last = new JsonPath[1];
        Patience.await().pollInterval(Duration.ofMillis(500)).until(() -> {
            var status = vendor.call().get("/status/" + id);
            last[0] = status.jsonPath();
            return status.statusCode() == 200 && !"PROCESSING".equals(last[0].getString("status"));
        });
        return last[0];
    }

    /** The render worker (a media-service instance) that has an ffmpeg child right now. */
    static Optional<String> rendering() {
        for (String name : RENDERERS) {
            boolean hasFfmpeg = Chaos.pid(name).stream().mapToObj(ProcessHandle::of).flatMap(Optional::stream)
                    .flatMap(ProcessHandle::children)
                    .anyMatch(child -> child.info().command().orElse("").endsWith("ffmpeg"));
            if (hasFfmpeg) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }
}
