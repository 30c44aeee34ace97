package io.pmedia.graphics.lottie;

/**
 * A Lottie file the engine refuses, named by where: {@link #pointer()} is the RFC 6901 JSON pointer of the value at
 * fault inside the file ({@code ""} for the file as a whole), so that a service can answer 400 with it as it is.
 */
public final class LottieException extends RuntimeException {

    private final String pointer;

    public LottieException(String pointer, String message) {
        super((pointer.isEmpty() ? "the file" : pointer) + ": " + message);
        this.pointer = pointer;
    }

    /** The JSON pointer of the value at fault ({@code ""}: the whole file). */
    public String pointer() {
        return pointer;
    }

    /** The message without the pointer. */
    public String reason() {
        return getMessage().substring(getMessage().indexOf(": ") + 2);
    }
}
