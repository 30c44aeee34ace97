package io.pmedia.media;

import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.rendered;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** Speech layers through the HTTP provider adapter, against a provider double over real HTTP, rendered by the workers. */
@QuarkusTest
@TestProfile(HttpSpeechTest.Provider.class)
class HttpSpeechTest {

    static final String KEY = "test-speech-key";
    static final List<JsonNode> calls = new CopyOnWriteArrayList<>();
    static HttpServer server;

    public static class Provider implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pmedia.media.speech.engine", "http", "pmedia.media.speech.http.api-key", KEY,
                    "pmedia.media.speech.http.base-url", base() + "/v1");
        }
    }

    /** A provider that answers every speech with one second of a tone, as a WAV made by FFmpeg. */
    static synchronized String base() {
        if (server == null) {
            try {
                Path wav = Files.createTempFile("provider", ".wav");
                Process ffmpeg = new ProcessBuilder("ffmpeg", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                        "sine=frequency=500:duration=1", wav.toString()).start();
                ffmpeg.waitFor();
                byte[] audio = Files.readAllBytes(wav);
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                ObjectMapper json = new ObjectMapper();
                server.createContext("/v1/audio/speech", exchange -> {
                    calls.add(json.createObjectNode().put("authorization",
                            exchange.getRequestHeaders().getFirst("Authorization"))
                            .set("body", json.readTree(exchange.getRequestBody())));
                    exchange.getResponseHeaders().add("Content-Type", "audio/wav");
                    exchange.sendResponseHeaders(200, audio.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(audio);
                    }
                });
                // what was asked, for the test (which runs in another class loader than this double)
                server.createContext("/calls", exchange -> {
                    byte[] answer = json.writeValueAsBytes(calls);
                    exchange.sendResponseHeaders(200, answer.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(answer);
                    }
                });
                server.start();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    static final String TEMPLATE = """
            {"use-case-id": "http-speech", "name": "HTTP speech",
             "canvas": {"width": 160, "height": 90, "fps": 25},
             "fields": [{"name": "name", "required": true}],
             "segments": [{"id": "say", "duration": "speech", "layers": [
               {"type": "speech", "text": "Hello {{name}} <break/> \\"quoted\\"", "voice": "alloy", "rate": 330}]}]}""";

    @Test
    void theProviderSpeaksTheTextAsDataAndTheVideoLastsAsLongAsItsAudio(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        MediaApi.registerTemplate(TEMPLATE).statusCode(org.hamcrest.Matchers.oneOf(200, 201));
        UUID client = UUID.randomUUID();
        var status = rendered(client, body("http-speech-1", "http-speech",
                Map.of("personalization_fields", Map.of("name", "Ada"))));
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");

        String provider = ConfigProvider.getConfig().getValue("pmedia.media.speech.http.base-url", String.class)
                .replace("/v1", "");
        JsonNode recorded = new ObjectMapper().readTree(java.net.URI.create(provider + "/calls").toURL());
        assertThat(recorded).isNotEmpty();
        assertThat(recorded).allMatch(c -> c.path("authorization").asText().equals("Bearer " + KEY));
        JsonNode call = recorded.get(recorded.size() - 1).path("body");
        assertThat(call.path("input").asText()).isEqualTo("Hello Ada <break/> \"quoted\"");
        assertThat(call.path("voice").asText()).isEqualTo("alloy");
        assertThat(call.path("model").asText()).isEqualTo("tts-1");
        assertThat(call.path("response_format").asText()).isEqualTo("wav");
        assertThat(call.path("speed").asDouble()).isEqualTo(2.0);

        FfmpegRunner.Probe video = FfmpegRunner.locate(null)
                .probe(MediaApi.download(status.getString("video-url"), dir, "v.mp4"));
        assertThat(video.durationSeconds()).as("the provider's 1 s of audio and the 0.4 s pause")
                .isCloseTo(1.4, org.assertj.core.api.Assertions.within(0.1));
    }
}
