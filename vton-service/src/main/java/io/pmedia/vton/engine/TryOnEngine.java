package io.pmedia.vton.engine;

import java.util.List;
import java.util.UUID;

import io.pmedia.vton.EngineKind;
import io.pmedia.vton.GarmentCategory;
import io.pmedia.vton.ModerationLevel;
import io.pmedia.vton.OutputFormat;
import io.pmedia.vton.TryOnMode;
import io.smallrye.mutiny.Uni;

/**
 * Dresses a model photo in garments. An engine may take seconds to minutes, but holds no thread while it waits
 * (blocking steps go to worker threads, waits are timers); call it on a Vert.x context.
 */
public interface TryOnEngine {

    /**
     * What one request of {@code clientId} asks for (interface 2.9, defaults applied). Garments are applied in order.
     */
    record Job(UUID requestId, UUID clientId, String modelImage, List<String> garmentImages, GarmentCategory category,
            TryOnMode mode, ModerationLevel moderationLevel, boolean segmentationFree, OutputFormat outputFormat) {
    }

    /** The generated image. */
    record Output(byte[] image, String contentType) {
    }

    EngineKind kind();

    /** The generated image, or a failure: a {@link TryOnException} whose message is for the vendor, or another. */
    Uni<Output> run(Job job);
}
