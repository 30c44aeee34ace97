package io.pmedia.media;

import jakarta.persistence.Converter;

import io.pmedia.common.wire.WireName;
import io.pmedia.common.wire.WireNameColumn;

/** Which of the interface's two request forms a realtime request came in; stored by its wire name. */
public enum RequestForm implements WireName {
    /** {@code POST /media/demo} (interface 2.3). */
    CURRENT("current"),
    /** {@code POST /video/demo} (interface 2.4). */
    EARLIER("earlier");

    private final String wire;

    RequestForm(String wire) {
        this.wire = wire;
    }

    /** As stored, and as the idempotency fingerprint of a request includes it. */
    @Override
    public String wire() {
        return wire;
    }

    /** Stored by its wire name. */
    @Converter
    public static class Column extends WireNameColumn<RequestForm> {
        public Column() {
            super(RequestForm.class);
        }
    }
}
