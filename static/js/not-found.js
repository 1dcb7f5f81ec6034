// The "Page not found" page: only the logo to draw (a file, as the Content-Security-Policy
// allows no inline script).

import { logoSvg } from "./ui.js";

document.getElementById("brand-logo").replaceWith(logoSvg());
