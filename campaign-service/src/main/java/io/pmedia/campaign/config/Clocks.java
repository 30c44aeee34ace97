package io.pmedia.campaign.config;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;

/**
 * The clock every status decision reads: the system's, unless a test supplies its own bean to move time forward
 * (a campaign window of hours, fired without waiting hours).
 */
public class Clocks {

    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return Clock.systemUTC();
    }
}
