package io.pmedia.media.render.engine;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.store.StoreFonts;

/**
 * The render engine of this replica, built on first use. A machine without FFmpeg or the fonts still starts: its
 * renders end FAILURE with the reason ("ffmpeg not found: install the OS package ffmpeg") and its readiness check
 * says so, instead of a crash at startup that hides the cause.
 */
@ApplicationScoped
public class RenderEngines {

    private final MediaConfig config;
    private final StoreFonts fonts;
    private volatile RenderEngine engine;

    public RenderEngines(MediaConfig config, StoreFonts fonts) {
        this.config = config;
        this.fonts = fonts;
    }

    /**
     * @throws RenderException when FFmpeg or the fonts are missing
     */
    public RenderEngine engine() {
        RenderEngine built = engine;
        if (built == null) {
            synchronized (this) {
                if (engine == null) {
                    engine = new RenderEngine(FfmpegRunner.locate(config.render().ffmpegDirectory().orElse(null))
                            .niced(config.render().nice()),
                            config.render().fontDirectory(), fonts);
                }
                built = engine;
            }
        }
        return built;
    }

    /** Why this replica cannot render, if it cannot. */
    public Optional<String> problem() {
        try {
            engine();
            return Optional.empty();
        } catch (RenderException e) {
            return Optional.of(e.getMessage());
        }
    }
}
