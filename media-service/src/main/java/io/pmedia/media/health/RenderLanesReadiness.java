package io.pmedia.media.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.pmedia.events.RenderLane;
import io.pmedia.media.worker.RenderLanes;

/**
 * A replica whose render lanes stopped or hang takes no render jobs although its partitions are assigned to it: not
 * ready (the jobs go to the others once it is restarted). Shows what each lane is rendering and has waiting.
 */
@Readiness
@ApplicationScoped
public class RenderLanesReadiness implements HealthCheck {

    private final RenderLanes lanes;

    public RenderLanesReadiness(RenderLanes lanes) {
        this.lanes = lanes;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("render-lanes");
        for (RenderLane lane : RenderLane.values()) {
            response.withData(lane.wire() + "-rendering", lanes.rendering(lane))
                    .withData(lane.wire() + "-waiting", lanes.waiting(lane));
        }
        return lanes.problem().map(problem -> response.down().withData("problem", problem).build())
                .orElseGet(() -> response.up().build());
    }
}
