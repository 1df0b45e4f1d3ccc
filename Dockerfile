# The tclab app. Build it with bin/build-app-image (it packages the app and picks the base), or by hand:
#   mvn package -DskipTests && docker build -t tclab .
# BASE: any image with a Java 17 runtime as `java` on the PATH; bin/build-app-image passes a Debian one built
# offline when eclipse-temurin cannot be pulled.
# Run with the Docker socket of the engine that hosts the labs, and a volume for the database (/app/data):
#   docker run -d -p 8080:8080 -v /var/run/docker.sock:/var/run/docker.sock -v tclab-data:/app/data tclab
ARG BASE=eclipse-temurin:17-jre
FROM ${BASE}
WORKDIR /app
COPY target/quarkus-app/ /app/
EXPOSE 8080
CMD ["java", "-jar", "/app/quarkus-run.jar"]
