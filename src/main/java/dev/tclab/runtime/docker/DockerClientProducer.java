package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import dev.tclab.config.TclabConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * The one Docker client of the app, built once and shared. It connects lazily, so producing it never fails even
 * when the engine is down; calls then fail and are reported as the engine being unreachable.
 */
@ApplicationScoped
public class DockerClientProducer {

    @Produces
    @Singleton
    DockerClientConfig dockerClientConfig(TclabConfig config) {
        DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
        config.docker().host().ifPresent(builder::withDockerHost);
        return builder.build();
    }

    @Produces
    @Singleton
    DockerClient dockerClient(DockerClientConfig clientConfig, TclabConfig config) {
        ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                .dockerHost(clientConfig.getDockerHost())
                .sslConfig(clientConfig.getSSLConfig())
                .connectionTimeout(config.docker().connectTimeout())
                // No response timeout: terminal and sampler streams stay open for as long as a learner works.
                .responseTimeout(Duration.ZERO)
                .maxConnections(512)
                .build();
        return DockerClientImpl.getInstance(clientConfig, http);
    }
}
