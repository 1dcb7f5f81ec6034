// Starts the vendored Swagger UI on /docs. A file rather than the inline script FastAPI's
// page writes, as the Content-Security-Policy allows no inline script.
/* global SwaggerUIBundle */

const host = document.getElementById("swagger-ui");
SwaggerUIBundle({
  url: host.dataset.openapiUrl,
  domNode: host,
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
