package io.pmedia.media.template;

/** The request cannot be served with this template; the message tells the vendor what to fix. */
public class TemplateResolutionException extends RuntimeException {

    public TemplateResolutionException(String message) {
        super(message, null, false, false);
    }
}
