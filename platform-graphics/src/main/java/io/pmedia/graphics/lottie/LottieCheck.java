package io.pmedia.graphics.lottie;

import java.util.List;
import java.util.Map;

/** STUB until the engine lands. */
public record LottieCheck(int width, int height, double frameRate, double inPoint, double outPoint,
        List<String> warnings, List<String> textLayers, Map<String, String> slots, List<String> imageAssets) {
    public double duration() {
        return (outPoint - inPoint) / frameRate;
    }
}
