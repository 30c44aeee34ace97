package io.pmedia.graphics.lottie;

import java.util.Map;

/** STUB until the engine lands. */
public final class LottieFile {
    public static LottieCheck check(byte[] json) {
        throw new UnsupportedOperationException();
    }

    public static String personalize(byte[] json, Map<String, String> texts, Map<String, String> colors,
            Map<String, byte[]> images) {
        throw new UnsupportedOperationException();
    }
}
