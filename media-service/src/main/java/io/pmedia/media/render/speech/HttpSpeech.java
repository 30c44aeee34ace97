package io.pmedia.media.render.speech;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.FetchResponse;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.template.ResolvedVideo;

/**
 * The adapter to an HTTP text-to-speech provider with the OpenAI speech API's shape: {@code POST {base}/audio/speech}
 * with {@code model}, {@code input}, {@code voice}, {@code speed} and {@code response_format: wav}, answering the
 * audio. The text travels as a JSON string (data, never markup); the call goes through the safe fetcher like every
 * other URL the platform fetches, and the answer is streamed to the WAV file with a size bound.
 */
public final class HttpSpeech implements SpeechEngine {

    /** The words per minute a provider speaks at speed 1. */
    static final double NATURAL_RATE = 165;
    static final long MAX_BYTES = 50L * 1024 * 1024;

    private final SafeFetcher fetcher;
    private final ObjectMapper mapper;
    private final URI endpoint;
    private final String apiKey;
    private final String model;
    private final Duration limit;

    public HttpSpeech(SafeFetcher fetcher, ObjectMapper mapper, String baseUrl, String apiKey, String model,
            Duration limit) {
        this.fetcher = fetcher;
        this.mapper = mapper;
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/audio/speech");
        this.apiKey = apiKey;
        this.model = model;
        this.limit = limit;
    }

    @Override
    public void synthesize(ResolvedVideo.Speech speech, Path wav) {
        if (apiKey == null || apiKey.isBlank()) {
            throw new RenderException("the speech provider is not configured (PMEDIA_SPEECH_API_KEY)");
        }
        ObjectNode body = mapper.createObjectNode().put("model", model).put("input", speech.text())
                .put("voice", speech.voice()).put("response_format", "wav")
                .put("speed", Math.max(0.25, Math.min(4.0, speech.rate() / NATURAL_RATE)));
        FetchResponse response;
        try {
            response = fetcher.fetch(FetchRequest.post(endpoint, mapper.writeValueAsBytes(body))
                    .withHeader("Authorization", "Bearer " + apiKey)
                    .withHeader("Content-Type", "application/json")
                    .withTimeout(limit).withMaxBytes(MAX_BYTES).withAcceptedTypes(List.of("audio/"))
                    .withSaveTo(wav))
                    .await().atMost(limit.plusSeconds(5));
        } catch (FetchException e) {
            throw new RenderException("the speech provider cannot be reached: " + e.getMessage());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            throw new RenderException("the speech provider did not answer within " + limit.toSeconds() + " s");
        }
        if (!response.successful()) {
            throw new RenderException("the speech provider answered HTTP " + response.status() + " for speech '"
                    + speech.id() + "'");
        }
        try {
            if (response.file() != null && !response.file().equals(wav)) {
                Files.move(response.file(), wav);
            }
        } catch (IOException e) {
            throw new RenderException("the speech provider's audio cannot be kept");
        }
    }
}
