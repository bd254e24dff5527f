; Astro components: the tags of their front matter and <script> elements (see tagquery).
; embeds: script
