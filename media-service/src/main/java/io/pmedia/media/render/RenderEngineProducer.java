package io.pmedia.media.render;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import io.pmedia.media.config.MediaConfig;

/** The engine, built on first use so that a machine without FFmpeg fails its renders (and readiness) clearly. */
public class RenderEngineProducer {

    @Produces
    @ApplicationScoped
    RenderEngine engine(MediaConfig config) {
        return new RenderEngine(FfmpegRunner.locate(config.render().ffmpegDirectory().orElse(null)),
                config.render().fontDirectory());
    }
}
