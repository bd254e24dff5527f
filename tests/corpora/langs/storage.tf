# Logs of the web tier.
resource "aws_s3_bucket" "logs" {
  bucket = "shop-logs"
  tags = {
    team = "web"
  }
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

output "bucket_arn" {
  value = aws_s3_bucket.logs.arn
}

module "vpc" {
  source = "./modules/vpc"
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

locals {
  name = "shop"
}

provider "aws" {
  region = var.region
}
