#!/bin/sh
# docker/sbom.sh - the image's software bill of materials, SPDX 2.3 JSON on
# stdout: sudokud itself (version, revision, SHA-256 of the binary) and
# every Debian package unpacked into the runtime tree (name, version,
# architecture, source package, SHA-256 of the .deb, package URL). Run by
# the Dockerfile's rootfs stage, where /bin/sh and dpkg-deb exist:
#   sh docker/sbom.sh DEB_DIR ROOTFS VERSION REVISION > sudokud.spdx.json
set -eu
debs=$1 rootfs=$2 version=$3 revision=$4
bin_sha=$(sha256sum "$rootfs/usr/local/bin/sudokud" | cut -d' ' -f1)
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)

cat <<JSON
{
  "spdxVersion": "SPDX-2.3",
  "dataLicense": "CC0-1.0",
  "SPDXID": "SPDXRef-DOCUMENT",
  "name": "sudokud-image-$version",
  "documentNamespace": "urn:sudokud:sbom:$version:$revision:$bin_sha",
  "creationInfo": { "created": "$now", "creators": ["Tool: docker/sbom.sh"] },
  "documentDescribes": ["SPDXRef-sudokud"],
  "packages": [
    {
      "SPDXID": "SPDXRef-sudokud",
      "name": "sudokud",
      "versionInfo": "$version",
      "sourceInfo": "git revision $revision",
      "downloadLocation": "NOASSERTION",
      "filesAnalyzed": false,
      "licenseConcluded": "NOASSERTION",
      "licenseDeclared": "NOASSERTION",
      "copyrightText": "NOASSERTION",
      "checksums": [{ "algorithm": "SHA256", "checksumValue": "$bin_sha" }]
    }
JSON
rels=""
for f in "$debs"/*.deb; do
    name=$(dpkg-deb -f "$f" Package)
    ver=$(dpkg-deb -f "$f" Version)
    arch=$(dpkg-deb -f "$f" Architecture)
    src=$(dpkg-deb -f "$f" Source | cut -d' ' -f1)
    src=${src:-$name}
    sha=$(sha256sum "$f" | cut -d' ' -f1)
    id=SPDXRef-deb-$(printf '%s' "$name" | tr -c 'A-Za-z0-9.\n-' '-')
    purl_ver=$(printf '%s' "$ver" | sed 's/:/%3A/g; s/+/%2B/g')
    cat <<JSON
    ,{
      "SPDXID": "$id",
      "name": "$name",
      "versionInfo": "$ver",
      "sourceInfo": "Debian source package $src",
      "supplier": "Organization: Debian",
      "downloadLocation": "NOASSERTION",
      "filesAnalyzed": false,
      "licenseConcluded": "NOASSERTION",
      "licenseDeclared": "NOASSERTION",
      "copyrightText": "NOASSERTION (see /usr/share/doc/$name/copyright)",
      "checksums": [{ "algorithm": "SHA256", "checksumValue": "$sha" }],
      "externalRefs": [{
        "referenceCategory": "PACKAGE-MANAGER",
        "referenceType": "purl",
        "referenceLocator": "pkg:deb/debian/$name@$purl_ver?arch=$arch&distro=debian-12"
      }]
    }
JSON
    rels="$rels    ,{ \"spdxElementId\": \"SPDXRef-sudokud\", \"relationshipType\": \"DEPENDS_ON\", \"relatedSpdxElement\": \"$id\" }
"
done
printf '  ],\n  "relationships": [\n'
printf '    { "spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES", "relatedSpdxElement": "SPDXRef-sudokud" }\n'
printf '%s' "$rels"
printf '  ]\n}\n'
