# The tclab app itself. Build the app first (mvn package -DskipTests), then: docker build -t tclab .
# Run with the Docker socket of the engine that hosts the labs:
#   docker run -d -p 8080:8080 -v /var/run/docker.sock:/var/run/docker.sock tclab
FROM eclipse-temurin:17-jre
WORKDIR /app
COPY target/quarkus-app/ /app/
EXPOSE 8080
CMD ["java", "-jar", "/app/quarkus-run.jar"]
