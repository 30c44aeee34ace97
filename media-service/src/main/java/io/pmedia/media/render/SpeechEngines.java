package io.pmedia.media.render;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.media.config.MediaConfig;

/** The speech engine of this replica: espeak-ng, configured by {@code pmedia.media.speech}. */
@ApplicationScoped
public class SpeechEngines {

    private final SpeechEngine engine;

    public SpeechEngines(MediaConfig config) {
        this.engine = new EspeakSpeech(config.speech().espeak(), config.speech().timeLimit());
    }

    public SpeechEngine engine() {
        return engine;
    }
}
