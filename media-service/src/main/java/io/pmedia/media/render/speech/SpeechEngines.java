package io.pmedia.media.render.speech;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.net.SafeFetcher;
import io.pmedia.media.config.MediaConfig;

/**
 * The speech engine of this replica, by {@code pmedia.media.speech.engine}: espeak-ng (built in) or an HTTP
 * provider ({@link HttpSpeech}).
 */
@ApplicationScoped
public class SpeechEngines {

    private final SpeechEngine engine;

    public SpeechEngines(MediaConfig config, SafeFetcher fetcher, ObjectMapper mapper) {
        MediaConfig.Speech speech = config.speech();
        this.engine = "http".equals(speech.engine())
                ? new HttpSpeech(fetcher, mapper, speech.http().baseUrl(), speech.http().apiKey().orElse(null),
                        speech.http().model(), speech.timeLimit())
                : new EspeakSpeech(speech.espeak(), speech.timeLimit());
    }

    public SpeechEngine engine() {
        return engine;
    }
}
