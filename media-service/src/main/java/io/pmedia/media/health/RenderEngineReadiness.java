package io.pmedia.media.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.pmedia.media.render.engine.RenderEngines;

/** A replica that cannot run FFmpeg (or lacks the fonts) is not ready to take render jobs. */
@Readiness
@ApplicationScoped
public class RenderEngineReadiness implements HealthCheck {

    private final RenderEngines engines;

    public RenderEngineReadiness(RenderEngines engines) {
        this.engines = engines;
    }

    @Override
    public HealthCheckResponse call() {
        return engines.problem()
                .map(problem -> HealthCheckResponse.named("render-engine").down().withData("problem", problem)
                        .build())
                .orElseGet(() -> HealthCheckResponse.named("render-engine").up()
                        .withData("ffmpeg", engines.engine().runner().ffmpeg()).build());
    }
}
