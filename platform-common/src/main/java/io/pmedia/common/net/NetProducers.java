package io.pmedia.common.net;

import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;

/** Wires the address policy from configuration; tests replace {@link HostResolver} with their own bean. */
@Singleton
public class NetProducers {

    @Produces
    @Singleton
    @DefaultBean
    HostResolver hostResolver() {
        return HostResolver.SYSTEM;
    }

    @Produces
    @Singleton
    DestinationPolicy destinationPolicy(FetchConfig config, HostResolver resolver) {
        List<Cidr> allowed = config.allowedNetworks().orElse(List.of()).stream()
                .filter(value -> !value.isBlank())
                .map(Cidr::parse)
                .toList();
        return new DestinationPolicy(new AddressPolicy(allowed), resolver);
    }
}
