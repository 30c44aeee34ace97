package io.pmedia.graphics.lottie;

/** STUB until the engine lands: a malformed Lottie file, at {@code pointer}. */
public class LottieException extends RuntimeException {
    private final String pointer;

    public LottieException(String pointer, String message) {
        super(message);
        this.pointer = pointer;
    }

    public String pointer() {
        return pointer;
    }
}
