package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;

/**
 * postgres-outage: PostgreSQL is stopped under load (tokens, realtime requests, status reads). Meanwhile every answer
 * is either served or a fast 503 SERVICE_UNAVAILABLE with the error body and Retry-After (never a 500, never a hang
 * past the configured bounds); readiness is DOWN; within 5 s of its return everything is served again; a request the
 * vendor repeats after a 503 is accepted once, renders once and is pushed once.
 */
class PostgresOutageScenario {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One answer of the load: what was asked, how it was answered, how long it took. */
    record Answer(String call, Instant at, int status, String code, boolean retryAfter, long millis) {
    }

    @Test
    void aStoppedDatabaseIsAFast503AndNothingIsLostOrDoneTwice() throws Exception {
        Duration outage = Chaos.size(Duration.ofSeconds(6), Duration.ofSeconds(10));
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos postgres-outage", receiver.url());
            String useCase = ChaosTemplates.tiny();
            List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
            Map<String, String> accepted = Collections.synchronizedMap(new LinkedHashMap<>());
            List<String> refused = Collections.synchronizedList(new ArrayList<>());
            String known = vendor.json(Map.of("client-request-id", "pg-outage-known", "customer-id", "c", "user-id",
                    "u", "use-case-id", useCase, "data", Map.of("personalization_fields", Map.of("name", "Ada"))))
                    .post("/media/demo").then().statusCode(200).extract().path("service-request-id");
            accepted.put("pg-outage-known", known);
            AtomicBoolean running = new AtomicBoolean(true);
            Thread load = new Thread(() -> {
                int i = 0;
                while (running.get()) {
                    String clientRequestId = "pg-outage-" + i++;
                    Answer media = call("POST /media/demo", vendor, "/media/demo", "{\"client-request-id\":\""
                            + clientRequestId + "\",\"customer-id\":\"c\",\"user-id\":\"u\",\"use-case-id\":\""
                            + useCase + "\",\"data\":{\"personalization_fields\":{\"name\":\"Ada\"}}}");
                    answers.add(media);
                    if (media.status() == 200) {
                        accepted.put(clientRequestId, "");
                    } else {
                        refused.add(clientRequestId);
                    }
                    answers.add(call("GET /status", vendor, "/status/" + known, null));
                    answers.add(call("POST /auth/token", null, "/auth/token", "{\"client_id\":\"" + vendor.id()
                            + "\",\"client_secret\":\"" + vendor.secret() + "\"}"));
                    Patience.await().pollDelay(Duration.ofMillis(150)).until(() -> true);
                }
            });
            load.start();
            Patience.await().pollDelay(Duration.ofSeconds(2)).until(() -> true);

            Chaos.pmedia("stop", "postgres");
            Instant stopped = Instant.now();
            Patience.await().until(() -> ready() == 503);
            int readinessDuringOutage = ready();
            Duration left = outage.minus(Duration.between(stopped, Instant.now()));
            if (!left.isNegative()) {
                Patience.await().pollDelay(left).atMost(left.plusSeconds(1)).until(() -> true);
            }
            Chaos.pmedia("start", "postgres");
            Instant back = Instant.now();
            Patience.await().pollInterval(Duration.ofMillis(100))
                    .until(() -> List.copyOf(answers).stream().filter(answer -> answer.at().isAfter(back))
                            .filter(answer -> answer.status() == 200).map(Answer::call).distinct().count() == 3);
            Instant served = List.copyOf(answers).stream().filter(answer -> answer.at().isAfter(back))
                    .filter(answer -> answer.status() == 200).map(Answer::at).max(Instant::compareTo).orElseThrow();
            double recovery = Duration.between(back, firstFullyServed(List.copyOf(answers), back)).toMillis() / 1000.0;
            Patience.await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
            running.set(false);
            load.join();

            // The vendor repeats what was refused; each is accepted once.
            for (String clientRequestId : List.copyOf(refused)) {
                Answer again = call("POST /media/demo", vendor, "/media/demo", "{\"client-request-id\":\""
                        + clientRequestId + "\",\"customer-id\":\"c\",\"user-id\":\"u\",\"use-case-id\":\""
                        + useCase + "\",\"data\":{\"personalization_fields\":{\"name\":\"Ada\"}}}");
                assertThat(again.status()).as(clientRequestId).isEqualTo(200);
                accepted.put(clientRequestId, "");
            }
            int requests = accepted.size();
            Patience.await().pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(accepted.keySet().stream().filter(id -> !receiver.pushed(id)))
                            .as("accepted requests not pushed yet").isEmpty());

            List<Answer> duringOutage = List.copyOf(answers).stream().filter(answer -> answer.status() != 200).toList();
            long slowest = List.copyOf(answers).stream().mapToLong(Answer::millis).max().orElse(0);
            long badAnswers = duringOutage.stream().filter(answer -> answer.status() != 503
                    || !"SERVICE_UNAVAILABLE".equals(answer.code()) || !answer.retryAfter()).count();
            String line = Chaos.report("postgres-outage", requests, requests, receiver.distinct(),
                    requests - receiver.distinct(), receiver.requestsPushedTwice(), recovery,
                    "database down " + outage.toSeconds() + " s: " + answers.size() + " calls, " + duringOutage.size()
                            + " answered 503, " + badAnswers + " other refusals, slowest answer " + slowest
                            + " ms, readiness " + readinessDuringOutage + " meanwhile, served again "
                            + Duration.between(back, served).toMillis() + " ms after its return");
            assertThat(duringOutage).as(line).isNotEmpty();
            assertThat(badAnswers).as(line).isZero();
            assertThat(slowest).as(line).isLessThan(5_000);
            assertThat(readinessDuringOutage).as(line).isEqualTo(503);
            assertThat(recovery).as(line).isLessThanOrEqualTo(5.0);
            assertThat(receiver.distinct()).as(line).isEqualTo(requests);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("start", "postgres");
        }
    }

    /** When every kind of call was answered 200 again, after the database's return. */
    private static Instant firstFullyServed(List<Answer> answers, Instant back) {
        Map<String, Instant> first = new LinkedHashMap<>();
        synchronized (answers) {
            for (Answer answer : answers) {
                if (answer.at().isAfter(back) && answer.status() == 200) {
                    first.putIfAbsent(answer.call(), answer.at());
                }
            }
        }
        return first.values().stream().max(Instant::compareTo).orElseThrow();
    }

    /** The gateway's readiness on its management port. */
    private static int ready() throws Exception {
        URI gateway = URI.create(Stack.gateway());
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + gateway.getHost() + ":"
                + (gateway.getPort() + 1100) + "/q/health/ready")).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static Answer call(String name, Vendor vendor, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Stack.gateway() + path))
                .timeout(Duration.ofSeconds(30));
        if (vendor != null) {
            request.header("Authorization", "Bearer " + vendor.token());
        }
        if (json != null) {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        }
        Instant at = Instant.now();
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            long millis = (System.nanoTime() - started) / 1_000_000;
            String code = null;
            if (response.statusCode() != 200) {
                JsonNode body = Chaos.JSON.readTree(response.body());
                code = body.path("code").asText(null);
            }
            return new Answer(name, at, response.statusCode(), code,
                    response.headers().firstValue("Retry-After").isPresent(), millis);
        } catch (Exception e) {
            return new Answer(name, at, -1, e.toString(), false, (System.nanoTime() - started) / 1_000_000);
        }
    }
}
