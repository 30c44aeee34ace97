package io.pmedia.graphics.lottie;

import java.util.List;
import java.util.Map;

/**
 * What {@link LottieFile#check} found in a file the engine accepts: its canvas and times (frames at
 * {@code frameRate}, from {@code inPoint} inclusive to {@code outPoint} exclusive), what a template can personalize
 * ({@code textLayers} by name, {@code slots} by id with their kind, {@code imageAssets} by id) and what the engine
 * will not draw ({@code warnings}, each naming the JSON pointer of what it is about).
 *
 * @param slots slot id to kind: {@code text}, {@code color}, {@code image}, {@code scalar} or {@code vector}
 */
public record LottieCheck(int width, int height, double frameRate, double inPoint, double outPoint,
        List<String> warnings, List<String> textLayers, Map<String, String> slots, List<String> imageAssets) {

    public LottieCheck {
        warnings = List.copyOf(warnings);
        textLayers = List.copyOf(textLayers);
        slots = Map.copyOf(slots);
        imageAssets = List.copyOf(imageAssets);
    }

    /**
     * The file's own length in seconds, {@code (outPoint - inPoint) / frameRate}: a layer that does not loop changes
     * for {@code duration() / speed} seconds after its start and then holds its last frame (the chunk cache needs
     * to know where a layer is still).
     */
    public double duration() {
        return (outPoint - inPoint) / frameRate;
    }
}
