package io.pmedia.graphics.error;

/**
 * A scene the engine cannot draw, named by where it came from: {@code path} is the JSON path the caller passed
 * along with the value (for example {@code segments[0].layers[2].keyframes[1].easing}), so that a service can
 * answer 400 with it as it is.
 */
public final class SceneException extends IllegalArgumentException {

    private final String path;

    public SceneException(String path, String message) {
        super(path + ": " + message);
        this.path = path;
    }

    /** The JSON path of the value at fault, as the caller named it. */
    public String path() {
        return path;
    }

    /** The message without the path. */
    public String reason() {
        return getMessage().substring(path.length() + 2);
    }
}
