package io.pmedia.vton.engine;

import java.util.List;
import java.util.UUID;

/** Dresses a model photo in garments. Implementations block (they run on worker threads) and may take seconds. */
public interface TryOnEngine {

    /** What one request asks for (interface 2.9, defaults applied). Garments are applied in order. */
    record Job(UUID requestId, String modelImage, List<String> garmentImages, String category, String mode,
            String moderationLevel, boolean segmentationFree, String outputFormat) {
    }

    /** The generated image. */
    record Output(byte[] image, String contentType) {
    }

    /** {@code builtin}, {@code fashn}. */
    String name();

    /** The generated image, or a {@link TryOnException} whose message is for the vendor. */
    Output run(Job job);
}
