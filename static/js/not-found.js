// The "Page not found" page: only the logo to draw (a file, as the Content-Security-Policy
// allows no inline script).

import { logoSvg } from "./ui.js";
import "./turns.js"; // the header's "Your turn" count

document.getElementById("brand-logo").replaceWith(logoSvg());
