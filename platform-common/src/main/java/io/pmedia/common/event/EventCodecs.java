package io.pmedia.common.event;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.events.EventCodec;

/** The event codec of every service, on the application's object mapper. */
@Singleton
public class EventCodecs {

    @Produces
    @Singleton
    EventCodec codec(ObjectMapper mapper) {
        return new EventCodec(mapper);
    }
}
