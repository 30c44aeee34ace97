package io.pmedia.vton;

import jakarta.persistence.Converter;

import io.pmedia.common.wire.WireName;
import io.pmedia.common.wire.WireNameColumn;

/** Interface 2.9 {@code output_format}: the generated image's encoding. */
public enum OutputFormat implements WireName {
    PNG("png", "image/png", "png"), JPEG("jpeg", "image/jpeg", "jpg");

    private final String wire;
    private final String contentType;
    private final String extension;

    OutputFormat(String wire, String contentType, String extension) {
        this.wire = wire;
        this.contentType = contentType;
        this.extension = extension;
    }

    @Override
    public String wire() {
        return wire;
    }

    public String contentType() {
        return contentType;
    }

    /** The file extension of the stored output, also the name of ImageIO's writer. */
    public String extension() {
        return extension;
    }

    /** Stored by its wire name. */
    @Converter
    public static class Column extends WireNameColumn<OutputFormat> {
        public Column() {
            super(OutputFormat.class);
        }
    }
}
